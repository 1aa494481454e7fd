import { PlusOutlined } from '@ant-design/icons';
import { CERT_API, type TAdminUser, type TCertAuditor, type TTeacher, type TPage } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Modal, Select, Space, Switch, type TableColumnsType } from 'antd';
import { Table } from '../../ui/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { useAdminAccess } from '../admin/admin-access';
import { ADMIN_API } from '../admin/admin-api';
import { confirmDanger } from '../admin/confirm';
import { formatDateTime } from '../../ui/dates';
import { certCalls, useAuditors, useCertSettings, useIssuingMutation } from './cert-api';

/**
 * Teachers and administrators of the customer matching a keyword, as auditor candidates: from the lists the caller
 * may read (administrator accounts are the institution administrators').
 */
function usePeople(keyword: string) {
  const { can } = useAdminAccess();
  const teachers = can('teacher.manage');
  const admins = can('user.manage');
  return useQuery({
    queryKey: ['certificate', 'auditor-candidates', teachers, admins, keyword],
    queryFn: async () => {
      const query = { keyword: keyword || undefined, page: 1, size: 20 };
      const [found, administrators] = await Promise.all([
        teachers ? api.get<TPage<TTeacher>>(ADMIN_API.teachers, { query }) : null,
        admins ? api.get<TPage<TAdminUser>>(ADMIN_API.users, { query }) : null,
      ]);
      const people = [...(found?.list ?? []), ...(administrators?.list ?? [])];
      const seen = new Set<string>();
      return people.filter((p) => !seen.has(p.id) && seen.add(p.id));
    },
    staleTime: 30_000,
  });
}

/** Whether issuances wait for review, and who reviews them (customer administrators). */
export function AuditorSettings() {
  const { t } = useTranslation('certificate');
  const settings = useCertSettings(true);
  const auditors = useAuditors(true);
  const [keyword, setKeyword] = useState('');
  const [picked, setPicked] = useState<string>();
  const people = usePeople(keyword);
  const [modal, modalHost] = Modal.useModal();
  const save = useIssuingMutation(certCalls.saveSettings, t('settings.saved'), [CERT_API.auditorSettings]);
  const add = useIssuingMutation(certCalls.addAuditor, t('settings.added'), [CERT_API.auditor]);
  const remove = useIssuingMutation(certCalls.removeAuditor, t('settings.removed'), [CERT_API.auditor]);
  const reviewOn = settings.data?.reviewRequired ?? false;
  // Review cannot be turned on with nobody to review (the server answers 4409 too).
  const nobodyToReview = !reviewOn && auditors.data?.length === 0;
  const columns: TableColumnsType<TCertAuditor> = [
    { title: t('fields.holder'), dataIndex: 'realName' },
    { title: t('fields.username'), dataIndex: 'username' },
    { title: t('settings.since'), key: 'createdAt', render: (_, a) => formatDateTime(a.createdAt) },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, a) => (
        <Button
          type="link"
          danger
          onClick={() =>
            confirmDanger(modal, {
              title: t('settings.removeTitle', { name: a.realName || a.username }),
              content: t('settings.removeBody'),
              okText: t('settings.remove'),
              cancelText: t('common.cancel'),
              onOk: () => remove.mutateAsync(a),
            })
          }
        >
          {t('settings.remove')}
        </Button>
      ),
    },
  ];
  return (
    <div className="cert-settings">
      <section aria-labelledby="cert-review-switch">
        <h2 id="cert-review-switch">{t('settings.review')}</h2>
        <Space>
          <Switch
            aria-label={t('settings.reviewSwitch')}
            aria-describedby={nobodyToReview ? 'cert-review-needs-auditor' : undefined}
            checked={reviewOn}
            disabled={nobodyToReview}
            loading={settings.isPending || save.isPending}
            onChange={(reviewRequired) => save.mutate({ reviewRequired })}
          />
          <span>{t('settings.reviewSwitch')}</span>
        </Space>
        <p className="cert-muted">{t('settings.reviewHint')}</p>
        {nobodyToReview && (
          <Alert type="info" showIcon id="cert-review-needs-auditor" title={t('settings.needsAuditor')} />
        )}
      </section>
      <section aria-labelledby="cert-auditors">
        <h2 id="cert-auditors">{t('settings.auditors')}</h2>
        <Space wrap className="cert-toolbar">
          <Select
            showSearch
            allowClear
            filterOption={false}
            style={{ width: 300 }}
            aria-label={t('settings.pick')}
            placeholder={t('settings.pick')}
            onSearch={setKeyword}
            loading={people.isFetching}
            value={picked}
            onChange={(value?: string) => setPicked(value)}
            options={(people.data ?? []).map((p) => ({
              value: p.id,
              label: `${p.realName || p.username} (${p.username})`,
            }))}
          />
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={!picked}
            loading={add.isPending}
            onClick={() => picked && add.mutate(picked, { onSuccess: () => setPicked(undefined) })}
          >
            {t('settings.add')}
          </Button>
        </Space>
        <Table
          rowKey="id"
          columns={columns}
          dataSource={auditors.data ?? []}
          loading={auditors.isFetching}
          pagination={false}
        />
      </section>
      {modalHost}
    </div>
  );
}
