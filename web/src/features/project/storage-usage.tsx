import { Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../ui/sizes';
import { useEditor } from './editor-context';
import { useProjectStorage } from './project-api';

/**
 * What the project owner's projects (workspaces and kept versions) take of their storage quota, under the file tree:
 * uploads, saves that grow a file, copies and versions beyond it answer "no space".
 */
export function StorageUsage() {
  const { t } = useTranslation('project');
  const { projectId, canEdit } = useEditor();
  const storage = useProjectStorage(projectId, canEdit).data;
  if (!storage) return null;
  const percent =
    storage.quotaBytes > 0 ? Math.min(100, Math.round((100 * storage.usedBytes) / storage.quotaBytes)) : 0;
  const full = storage.usedBytes >= storage.quotaBytes;
  const used = t('tree.storageUsed', { used: formatBytes(storage.usedBytes), quota: formatBytes(storage.quotaBytes) });
  return (
    <div className="file-tree__storage">
      <Progress
        percent={percent}
        size="small"
        showInfo={false}
        status={full ? 'exception' : 'normal'}
        aria-label={t('tree.storage')}
        aria-valuetext={used}
      />
      <span className="panel-hint">{used}</span>
      {full && (
        <p className="panel-hint" role="alert">
          {t('tree.storageFull')}
        </p>
      )}
    </div>
  );
}
