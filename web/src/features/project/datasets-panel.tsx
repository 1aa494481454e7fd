import { CopyOutlined, DeleteOutlined, LoadingOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { UI_SIZES, type TProjectDataset } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { List, Modal, Skeleton, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { DatasetPicker } from './dataset-picker';
import { useEditor } from './editor-context';
import { projectDatasetKeys, projectDatasets, useProjectDatasets } from './project-datasets-api';
import { STATUS_COLORS } from '../../ui/status-colors';

async function copyPath(text: string, done: string, failed: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(done);
  } catch {
    toast.error(failed);
  }
}

/**
 * The datasets of the project: each is read-only at `datasets/<name>` of the workspace, which code reads
 * (`pd.read_csv('datasets/iris/iris.csv')`); its copy's state (copying, ready, failed with why and a retry), a
 * newer version to move to, the path to copy, removal, and adding one the user may see.
 */
export function DatasetsPanel() {
  const { t } = useTranslation('project');
  const { projectId, canEdit } = useEditor();
  const client = useQueryClient();
  const attached = useProjectDatasets(projectId);
  const [picking, setPicking] = useState(false);
  const [modal, modalHost] = Modal.useModal();
  const refresh = () => client.invalidateQueries({ queryKey: projectDatasetKeys.attached(projectId) });

  const sync = async (dataset: TProjectDataset) => {
    await projectDatasets.sync(projectId, dataset.datasetId);
    await refresh();
  };
  const detach = (dataset: TProjectDataset) =>
    modal.confirm({
      title: t('datasets.detachTitle', { name: dataset.name }),
      content: t('datasets.detachBody', { path: dataset.path }),
      width: UI_SIZES.confirmDialogWidth,
      okText: t('datasets.detach'),
      okButtonProps: { danger: true },
      cancelText: t('datasets.cancel'),
      onOk: async () => {
        await projectDatasets.detach(projectId, dataset.datasetId);
        await refresh();
      },
    });

  return (
    <div className="datasets-panel">
      {modalHost}
      <p className="panel-hint">{t('datasets.hint')}</p>
      {canEdit && (
        <Button kind="primary" icon={<PlusOutlined />} onClick={() => setPicking(true)}>
          {t('datasets.add')}
        </Button>
      )}
      {attached.isLoading ? (
        <Skeleton active />
      ) : (
        <List
          dataSource={attached.data ?? []}
          locale={{ emptyText: t('datasets.empty') }}
          renderItem={(dataset) => (
            <List.Item
              data-dataset={dataset.mountName}
              actions={[
                <Button
                  key="copy"
                  size="small"
                  icon={<CopyOutlined />}
                  onClick={() => void copyPath(dataset.path, t('datasets.copied'), t('datasets.copyFailed'))}
                >
                  {t('datasets.copyPath')}
                </Button>,
                ...(canEdit
                  ? [
                      <Button
                        key="detach"
                        size="small"
                        icon={<DeleteOutlined />}
                        aria-label={t('datasets.detachNamed', { name: dataset.name })}
                        onClick={() => detach(dataset)}
                      >
                        {t('datasets.detach')}
                      </Button>,
                    ]
                  : []),
              ]}
            >
              <List.Item.Meta
                title={
                  <>
                    {dataset.name} <SyncState dataset={dataset} />
                  </>
                }
                description={<DatasetLine dataset={dataset} canEdit={canEdit} onSync={() => void sync(dataset)} />}
              />
            </List.Item>
          )}
        />
      )}
      <DatasetPicker
        open={picking}
        attached={new Set((attached.data ?? []).map((d) => d.datasetId))}
        onClose={() => setPicking(false)}
        onAttached={() => void refresh()}
      />
    </div>
  );
}

function SyncState({ dataset }: { dataset: TProjectDataset }) {
  const { t } = useTranslation('project');
  if (dataset.syncState === 'inProgress') {
    return (
      // The icon takes the tag's white text colour: a spinner in the brand colour vanishes on the solid tag.
      <Tag color={STATUS_COLORS.processing} icon={<LoadingOutlined aria-hidden="true" />} data-sync-state="inProgress">
        {t('datasets.state.inProgress')}
      </Tag>
    );
  }
  return (
    <Tag
      color={dataset.syncState === 'success' ? STATUS_COLORS.success : STATUS_COLORS.error}
      data-sync-state={dataset.syncState}
    >
      {t(`datasets.state.${dataset.syncState}`)}
    </Tag>
  );
}

/** The path code reads, the version mounted, and what went wrong or a newer version to move to. */
function DatasetLine({ dataset, canEdit, onSync }: { dataset: TProjectDataset; canEdit: boolean; onSync: () => void }) {
  const { t } = useTranslation('project');
  const newer =
    dataset.currentVersionNumber !== null &&
    dataset.versionNumber !== null &&
    dataset.currentVersionNumber > dataset.versionNumber;
  return (
    <div className="datasets-panel__line">
      <code>{dataset.path}</code>
      {dataset.versionNumber !== null && <span> · {t('datasets.version', { number: dataset.versionNumber })}</span>}
      {dataset.syncError && (
        <p className="panel-error" role="alert">
          {dataset.syncError.errorMsg}: {t(`datasets.reason.${dataset.syncError.reason}`, { path: dataset.path })}
        </p>
      )}
      {canEdit && dataset.syncState === 'failure' && dataset.syncError?.reason !== 'noPermission' && (
        <Button size="small" icon={<ReloadOutlined />} onClick={onSync}>
          {t('datasets.retry')}
        </Button>
      )}
      {canEdit && newer && dataset.syncState !== 'inProgress' && (
        <Button size="small" icon={<ReloadOutlined />} onClick={onSync}>
          {t('datasets.update', { number: dataset.currentVersionNumber })}
        </Button>
      )}
    </div>
  );
}
