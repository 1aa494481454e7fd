import { ApiError } from '../../app/api-client';
import { List, Modal, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { SearchInput } from '../../ui/named-icons';
import { useEditor } from './editor-context';
import { projectDatasets, useDatasetChoices } from './project-datasets-api';

/** Picks a dataset the user may see (their own, their school's public ones, their groups'), by keyword. */
export function DatasetPicker({
  open,
  attached,
  onClose,
  onAttached,
}: {
  open: boolean;
  attached: ReadonlySet<string>;
  onClose: () => void;
  onAttached: () => void;
}) {
  const { t } = useTranslation('project');
  const { projectId } = useEditor();
  const [keyword, setKeyword] = useState('');
  const [refusal, setRefusal] = useState<string>();
  const [adding, setAdding] = useState<string>();
  const choices = useDatasetChoices(keyword, open);

  const add = async (datasetId: string) => {
    setRefusal(undefined);
    setAdding(datasetId);
    try {
      await projectDatasets.attach(projectId, datasetId);
      onAttached();
      onClose();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setRefusal(error.message);
    } finally {
      setAdding(undefined);
    }
  };

  return (
    <Modal open={open} title={t('datasets.pickTitle')} footer={null} onCancel={onClose} destroyOnHidden>
      <SearchInput
        aria-label={t('datasets.search')}
        placeholder={t('datasets.search')}
        allowClear
        onSearch={(value: string) => setKeyword(value.trim())}
      />
      <FormError message={refusal} />
      <List
        loading={choices.isLoading}
        dataSource={choices.data?.list ?? []}
        locale={{ emptyText: t('datasets.noChoices') }}
        renderItem={(dataset) => {
          const isAttached = attached.has(dataset.id);
          const ready = dataset.currentVersion !== null;
          return (
            <List.Item
              actions={[
                isAttached ? (
                  <Tag key="added">{t('datasets.added')}</Tag>
                ) : ready ? (
                  <Button
                    key="add"
                    size="small"
                    loading={adding === dataset.id}
                    aria-label={t('datasets.addNamed', { name: dataset.name })}
                    onClick={() => void add(dataset.id)}
                  >
                    {t('datasets.addOne')}
                  </Button>
                ) : (
                  <Tag key="not-ready">{t('datasets.notReady')}</Tag>
                ),
              ]}
            >
              <List.Item.Meta
                title={dataset.name}
                description={
                  dataset.currentVersion
                    ? t('datasets.files', { count: dataset.currentVersion.fileCount })
                    : dataset.description
                }
              />
            </List.Item>
          );
        }}
      />
    </Modal>
  );
}
