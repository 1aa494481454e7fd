import {
  CopyOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FolderOpenOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import type { TFileNode } from '@aiedu/contracts';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';

/** What can be done with the file or folder selected in the tree: download it, and for editors change it. */
export function SelectionActions(props: {
  node: TFileNode;
  canEdit: boolean;
  onDownload(): void;
  onRename(): void;
  onMove(): void;
  onDuplicate(): void;
  onCopyTo(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation('project');
  const { node, canEdit } = props;
  return (
    <div className="file-tree__selection" role="toolbar" aria-label={t('tree.actions', { name: node.name })}>
      {node.kind === 'file' && (
        <Button size="small" icon={<DownloadOutlined />} onClick={props.onDownload}>
          {t('tree.download')}
        </Button>
      )}
      {canEdit && (
        <>
          <Button size="small" icon={<EditOutlined />} onClick={props.onRename}>
            {t('tree.rename')}
          </Button>
          <Button size="small" icon={<SwapOutlined />} onClick={props.onMove}>
            {t('tree.move')}
          </Button>
          <Button size="small" icon={<CopyOutlined />} onClick={props.onDuplicate}>
            {t('tree.duplicate')}
          </Button>
          <Button size="small" icon={<FolderOpenOutlined />} onClick={props.onCopyTo}>
            {t('tree.copyTo')}
          </Button>
          <Button size="small" icon={<DeleteOutlined />} danger onClick={props.onDelete}>
            {t('tree.delete')}
          </Button>
        </>
      )}
    </div>
  );
}
