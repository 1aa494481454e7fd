import { compareVersions, PROJECT_LIMITS, UI_SIZES } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, InputNumber, List, Modal, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { useEditor } from './editor-context';
import { projectKeys, useVersions, versions, type TFileChange, type TProjectVersion } from './project-api';

const LOCALES: Record<string, string> = { en: 'en', zh_CHS: 'zh-CN', zh_CHT: 'zh-TW', ja: 'ja' };
const formatWhen = (iso: string, language: string) =>
  new Intl.DateTimeFormat(LOCALES[language] ?? 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

type VersionForm = { major: number; minor: number; revision: number; description: string };

function nextVersion(newest: TProjectVersion | undefined): VersionForm {
  if (!newest) return { major: 1, minor: 0, revision: 0, description: '' };
  if (newest.revision < PROJECT_LIMITS.versionSegmentMax)
    return { ...newest, revision: newest.revision + 1, description: '' };
  if (newest.minor < PROJECT_LIMITS.versionSegmentMax)
    return { major: newest.major, minor: newest.minor + 1, revision: 0, description: '' };
  return { major: newest.major + 1, minor: 0, revision: 0, description: '' };
}

/** Version control: save the draft as a version, restore a version, compare a version with the draft. */
export function VersionsPanel() {
  const { t, i18n } = useTranslation('project');
  const { projectId, canEdit, saveAll } = useEditor();
  const client = useQueryClient();
  const list = useVersions(projectId);
  const newest = list.data?.[0];
  const [form] = Form.useForm<VersionForm>();
  const [diff, setDiff] = useState<{ version: string; changes: TFileChange[] } | null>(null);
  // Confirmations render inside the editor (its theme and language), not in a root of their own.
  const [modal, modalHost] = Modal.useModal();
  const refresh = () => client.invalidateQueries({ queryKey: projectKeys.versions(projectId) });

  const segment = (name: 'major' | 'minor' | 'revision') => (
    <Form.Item name={name} label={t(`versions.${name}`)} rules={[{ required: true, message: t(`versions.${name}`) }]}>
      <InputNumber min={0} max={PROJECT_LIMITS.versionSegmentMax} precision={0} />
    </Form.Item>
  );

  return (
    <div className="versions-panel">
      {modalHost}
      {canEdit && (
        <Form
          form={form}
          layout="vertical"
          key={newest?.id ?? 'none'}
          initialValues={nextVersion(newest)}
          onFinish={async (values) => {
            await saveAll();
            await versions.create(projectId, values);
            form.resetFields();
            await refresh();
          }}
        >
          <Space wrap>
            {segment('major')}
            {segment('minor')}
            {segment('revision')}
          </Space>
          <Form.Item
            name="description"
            label={t('versions.description')}
            dependencies={['major', 'minor', 'revision']}
            rules={[
              { required: true, whitespace: true, message: t('versions.descriptionRequired') },
              {
                validator: () =>
                  newest && compareVersions(form.getFieldsValue(), newest) <= 0
                    ? Promise.reject(new Error(t('versions.newer', { version: newest.version })))
                    : Promise.resolve(),
              },
            ]}
          >
            <Input.TextArea maxLength={PROJECT_LIMITS.versionDescription} rows={2} />
          </Form.Item>
          <Button kind="primary" htmlType="submit">
            {t('versions.save')}
          </Button>
        </Form>
      )}
      <h3>{t('versions.title')}</h3>
      <List
        loading={list.isLoading}
        locale={{ emptyText: t('versions.none') }}
        dataSource={list.data ?? []}
        renderItem={(v) => (
          <List.Item
            actions={[
              <Button
                key="compare"
                size="small"
                onClick={async () =>
                  setDiff({ version: v.version, changes: await versions.compare(projectId, v.id, 'draft') })
                }
              >
                {t('versions.compare')}
              </Button>,
              ...(canEdit
                ? [
                    <Button
                      key="restore"
                      size="small"
                      onClick={() =>
                        modal.confirm({
                          title: t('versions.restoreTitle', { version: v.version }),
                          content: t('versions.restoreBody'),
                          width: UI_SIZES.confirmDialogWidth,
                          okText: t('versions.restore'),
                          cancelText: t('tree.cancel'),
                          onOk: async () => {
                            await versions.restore(projectId, v.id);
                            await client.invalidateQueries({ queryKey: projectKeys.files(projectId) });
                            toast.success(t('versions.restored'));
                          },
                        })
                      }
                    >
                      {t('versions.restore')}
                    </Button>,
                  ]
                : []),
            ]}
          >
            <List.Item.Meta
              title={`${v.version} · ${t('versions.snapshot', { number: v.snapshotNo })}`}
              description={`${v.description} · ${t('versions.files', { count: v.fileCount })} · ${formatWhen(v.createdAt, i18n.language)}`}
            />
          </List.Item>
        )}
      />
      <Modal
        open={Boolean(diff)}
        title={diff ? t('versions.compare') : ''}
        footer={null}
        onCancel={() => setDiff(null)}
      >
        <Table
          size="small"
          rowKey="path"
          pagination={false}
          dataSource={diff?.changes ?? []}
          columns={[
            { dataIndex: 'path', title: t('tree.nameLabel') },
            {
              dataIndex: 'change',
              title: t('versions.title'),
              render: (c: TFileChange['change']) => <Tag>{t(`versions.change.${c}`)}</Tag>,
            },
          ]}
        />
      </Modal>
    </div>
  );
}
