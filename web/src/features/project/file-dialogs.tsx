import { LIMITS, RENAME_SAFE, type TFileNode } from '@aiedu/contracts';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog } from './form-dialog';

export type NameDialog = { title: string; initial: string; onSubmit(name: string): Promise<void> };

/** Asks for a file or folder name: at most 30 characters, no special characters (spec 5). */
export function FileNameDialog({ dialog, onClose }: { dialog: NameDialog | null; onClose(): void }) {
  const { t } = useTranslation('project');
  return (
    <FormDialog<{ name: string }>
      open={Boolean(dialog)}
      title={dialog?.title}
      initialValues={{ name: dialog?.initial ?? '' }}
      onSubmit={({ name }) => dialog!.onSubmit(name.trim())}
      onClose={onClose}
    >
      {
        <Form.Item
          name="name"
          label={t('tree.nameLabel')}
          extra={t('tree.nameRule')}
          rules={[
            { required: true, whitespace: true, message: t('tree.nameRule') },
            { max: LIMITS.rename, message: t('tree.nameRule') },
            { pattern: RENAME_SAFE, message: t('tree.nameRule') },
          ]}
        >
          <Input autoFocus maxLength={LIMITS.rename} />
        </Form.Item>
      }
    </FormDialog>
  );
}

export function folderOptions(nodes: TFileNode[], rootLabel: string) {
  const options = [{ value: '', label: rootLabel }];
  const walk = (list: TFileNode[]) => {
    for (const node of list) {
      if (node.kind !== 'folder') continue;
      options.push({ value: node.path, label: node.path });
      walk(node.children ?? []);
    }
  };
  walk(nodes);
  return options;
}

/** Picks a folder of the project, to move or copy the selection into. */
export function MoveDialog({
  open,
  title,
  nodes,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  nodes: TFileNode[];
  onSubmit(folder: string): Promise<void>;
  onClose(): void;
}) {
  const { t } = useTranslation('project');
  return (
    <FormDialog<{ folder: string }>
      open={open}
      title={title}
      initialValues={{ folder: '' }}
      onSubmit={({ folder }) => onSubmit(folder)}
      onClose={onClose}
    >
      {
        <Form.Item name="folder" label={t('tree.targetFolder')}>
          <Select options={folderOptions(nodes, t('tree.root'))} />
        </Form.Item>
      }
    </FormDialog>
  );
}
