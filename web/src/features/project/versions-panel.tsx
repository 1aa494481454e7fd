import { compareVersions, LIMITS, PROJECT_LIMITS, UI_SIZES, VERSION_SEGMENT_INPUT } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, List, Modal, Space, Tag } from 'antd';
import { Table } from '../../ui/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { useEditor } from './editor-context';
import { projectKeys, useVersions, versions, type TFileChange } from './project-api';

const LOCALES: Record<string, string> = { en: 'en', zh_CHS: 'zh-CN', zh_CHT: 'zh-TW', ja: 'ja' };
const formatWhen = (iso: string, language: string) =>
  new Intl.DateTimeFormat(LOCALES[language] ?? 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** The version input's fields, as typed: each segment 0–99 without a leading zero (spec 5). */
type VersionForm = { major: string; minor: string; revision: string; description: string };
type Segments = { major: number; minor: number; revision: number };

const MAX = LIMITS.versionSegmentMax;
const typed = (v: Segments): VersionForm => ({
  major: String(v.major),
  minor: String(v.minor),
  revision: String(v.revision),
  description: '',
});
const segmentsOf = (form: Partial<VersionForm>): Segments => ({
  major: Number(form.major),
  minor: Number(form.minor),
  revision: Number(form.revision),
});

/** The version after the newest: the next revision, rolling over to the next minor (x.y.99 → x.(y+1).0) or major. */
function nextVersion(newest: Segments | undefined): Segments {
  if (!newest) return { major: 1, minor: 0, revision: 0 };
  if (newest.revision < MAX) return { major: newest.major, minor: newest.minor, revision: newest.revision + 1 };
  if (newest.minor < MAX) return { major: newest.major, minor: newest.minor + 1, revision: 0 };
  return { major: newest.major + 1, minor: 0, revision: 0 };
}

/** Version control: save the draft as a version, restore a version, compare a version with the draft. */
export function VersionsPanel() {
  const { t, i18n } = useTranslation('project');
  const { projectId, canEdit, saveAll, replaceFiles } = useEditor();
  const client = useQueryClient();
  const list = useVersions(projectId);
  const newest = list.data?.[0];
  const [form] = Form.useForm<VersionForm>();
  const [diff, setDiff] = useState<{ version: string; changes: TFileChange[] } | null>(null);
  // Confirmations render inside the editor (its theme and language), not in a root of their own.
  const [modal, modalHost] = Modal.useModal();
  const refresh = () => client.invalidateQueries({ queryKey: projectKeys.versions(projectId) });
  // The suggestion follows the newest version once the list has come (and after each new version).
  useEffect(() => {
    form.resetFields();
  }, [form, newest?.id]);

  const segment = (name: 'major' | 'minor' | 'revision') => (
    <Form.Item
      name={name}
      label={t(`versions.${name}`)}
      rules={[{ required: true, pattern: VERSION_SEGMENT_INPUT, message: t('versions.segmentRule', { max: MAX }) }]}
    >
      <Input inputMode="numeric" maxLength={String(MAX).length} className="versions-panel__segment" />
    </Form.Item>
  );

  return (
    <div className="versions-panel">
      {modalHost}
      {canEdit && (
        <Form
          form={form}
          layout="vertical"
          initialValues={typed(nextVersion(newest))}
          onFinish={async (values) => {
            await saveAll();
            await versions.create(projectId, { ...segmentsOf(values), description: values.description });
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
                  newest && compareVersions(segmentsOf(form.getFieldsValue()), newest) <= 0
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
                          // Open files are saved, then reopen with the version's content: none is written back.
                          onOk: async () => {
                            await replaceFiles(() => versions.restore(projectId, v.id));
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
