import { DownloadOutlined } from '@ant-design/icons';
import {
  CERT_API,
  CERT_ISSUANCE_STATES,
  type CertIssuanceState,
  type TCertIssuance,
  type TCertIssuanceDetail,
} from '@aiedu/contracts';
import { Alert, Button, Descriptions, Drawer, Modal, Space, Tag, Timeline, type TableColumnsType } from 'antd';
import { Table } from '../../ui/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { confirmDanger } from '../admin/confirm';
import { FilterSelect, ListTable } from '../admin/list-controls';
import { useListQuery } from '../admin/use-list-query';
import { formatDateTime } from '../../ui/dates';
import { STATUS_COLORS } from '../../ui/status-colors';
import {
  certCalls,
  downloadIssuance,
  useCertOptions,
  useIssuanceDetail,
  useIssuingMutation,
  useReviewHistory,
} from './cert-api';
import { IssuanceForm, type IssuanceDraft } from './issuance-form';
import { UserCertState } from './my-certificates-page';

const STATE_COLORS: Record<CertIssuanceState, string> = {
  pending: STATUS_COLORS.processing,
  refused: STATUS_COLORS.error,
  withdrawn: STATUS_COLORS.neutral,
  issued: STATUS_COLORS.success,
};

export function IssuanceState({ issuance }: { issuance: Pick<TCertIssuance, 'state' | 'refuseReason'> }) {
  const { t } = useTranslation('certificate');
  return (
    <>
      <Tag color={STATE_COLORS[issuance.state]}>{t(`issuanceStates.${issuance.state}`)}</Tag>
      {issuance.state === 'refused' && issuance.refuseReason && (
        <div className="cert-muted">{t('issuances.refusedBecause', { reason: issuance.refuseReason })}</div>
      )}
    </>
  );
}

/** An issuance's review records, oldest first. */
export function ReviewHistory({ certIssId }: { certIssId: string }) {
  const { t } = useTranslation('certificate');
  const history = useReviewHistory(certIssId);
  if (!history.data?.length) return null;
  return (
    <section aria-label={t('review.history')}>
      <h3>{t('review.history')}</h3>
      <Timeline
        items={history.data.map((r) => ({
          key: r.id,
          children: (
            <>
              <div>
                {t(`reviewStates.${r.state}`)}
                {r.auditorName ? ` · ${r.auditorName}` : ''}
              </div>
              <div className="cert-muted">{formatDateTime(r.decidedAt ?? r.createdAt)}</div>
              {r.reason && <div>{r.reason}</div>}
            </>
          ),
        }))}
      />
    </section>
  );
}

function HolderTable({ detail }: { detail: TCertIssuanceDetail }) {
  const { t } = useTranslation('certificate');
  const columns: TableColumnsType<TCertIssuanceDetail['holders'][number]> = [
    { title: t('fields.holder'), dataIndex: 'holderName' },
    { title: t('fields.username'), dataIndex: 'username' },
    { title: t('fields.number'), key: 'number', render: (_, h) => h.number ?? '—' },
    { title: t('fields.state'), key: 'state', render: (_, h) => (h.number ? <UserCertState cert={h} /> : '—') },
  ];
  return <Table rowKey="id" size="small" columns={columns} dataSource={detail.holders} pagination={{ pageSize: 10 }} />;
}

/** One issuance: its facts, holders with their numbers, the merged PDF download and its review history. */
function IssuanceDrawer({ certIssId, onClose }: { certIssId: string | null; onClose: () => void }) {
  const { t } = useTranslation('certificate');
  const detail = useIssuanceDetail(certIssId);
  const [downloading, setDownloading] = useState(false);
  const d = detail.data;
  const download = async () => {
    if (!d) return;
    setDownloading(true);
    try {
      await downloadIssuance(d.id, `${d.certName}-${d.issueDate}`);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Drawer open={Boolean(certIssId)} onClose={onClose} size={720} title={d ? d.certName : t('issuances.detail')}>
      {d && (
        <>
          <Descriptions
            column={1}
            size="small"
            items={[
              { key: 'awardFor', label: t('fields.awardFor'), children: d.awardFor },
              { key: 'date', label: t('fields.issueDate'), children: d.issueDate },
              { key: 'state', label: t('fields.state'), children: <IssuanceState issuance={d} /> },
              { key: 'issuer', label: t('fields.issuedBy'), children: d.issuerName },
              { key: 'source', label: t('fields.source'), children: t(`sources.${d.source}`) },
            ]}
          />
          {d.state === 'issued' && (
            <Button icon={<DownloadOutlined />} loading={downloading} onClick={() => void download()}>
              {t('issuances.downloadAll')}
            </Button>
          )}
          <h3>{t('issuances.holders', { count: d.holders.length })}</h3>
          <HolderTable detail={d} />
          <ReviewHistory certIssId={d.id} />
        </>
      )}
    </Drawer>
  );
}

/** The issuances of the caller: filters, state with the refusal reason, detail, resubmission and withdrawal. */
export function IssuanceList() {
  const { t } = useTranslation('certificate');
  const list = useListQuery<TCertIssuance>(CERT_API.certIss);
  const options = useCertOptions();
  const [open, setOpen] = useState<string | null>(null);
  const [draft, setDraft] = useState<IssuanceDraft | null>(null);
  const [modal, modalHost] = Modal.useModal();
  const withdraw = useIssuingMutation(certCalls.withdraw, t('issuances.withdrawn'));

  const startResubmit = async (issuance: TCertIssuance) => {
    const d = await api.get<TCertIssuanceDetail>(CERT_API.certIssDetail, { query: { certIssId: issuance.id } });
    setDraft({
      certIssId: d.id,
      certId: d.certId,
      awardFor: d.awardFor,
      issueDate: d.issueDate,
      picked: {
        source: d.source,
        students: d.holders.map((h) => ({
          userId: h.userId,
          username: h.username,
          realName: h.holderName,
          schoolName: '',
          className: '',
        })),
      },
    });
  };
  const askWithdraw = (issuance: TCertIssuance) => {
    const reviewId = issuance.pendingReviewId;
    if (!reviewId) return;
    confirmDanger(modal, {
      title: t('issuances.withdrawTitle', { name: issuance.certName }),
      content: t('issuances.withdrawBody'),
      okText: t('issuances.withdraw'),
      cancelText: t('common.cancel'),
      onOk: () => withdraw.mutateAsync(reviewId),
    });
  };

  const columns: TableColumnsType<TCertIssuance> = [
    { title: t('fields.template'), dataIndex: 'certName' },
    { title: t('fields.awardFor'), dataIndex: 'awardFor' },
    { title: t('fields.issueDate'), dataIndex: 'issueDate' },
    { title: t('fields.state'), key: 'state', render: (_, r) => <IssuanceState issuance={r} /> },
    { title: t('fields.holders'), dataIndex: 'holderCount' },
    { title: t('fields.issuedBy'), dataIndex: 'issuerName' },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, r) => (
        <Space size={0} wrap>
          <Button type="link" onClick={() => setOpen(r.id)}>
            {t('common.view')}
          </Button>
          {r.state === 'refused' && (
            <Button type="link" onClick={() => void startResubmit(r)}>
              {t('issuances.resubmit')}
            </Button>
          )}
          {r.state === 'pending' && (
            <Button type="link" danger onClick={() => void askWithdraw(r)}>
              {t('issuances.withdraw')}
            </Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <>
      <div className="cert-toolbar">
        <FilterSelect
          label={t('filters.allStates')}
          options={CERT_ISSUANCE_STATES.map((s) => ({ value: s, label: t(`issuanceStates.${s}`) }))}
          onChange={(state) => list.setFilters({ state })}
        />
        <FilterSelect
          label={t('filters.allTemplates')}
          options={(options.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          onChange={(certId) => list.setFilters({ certId })}
        />
      </div>
      <ListTable list={list} columns={columns} />
      <IssuanceDrawer certIssId={open} onClose={() => setOpen(null)} />
      <Drawer
        open={Boolean(draft)}
        onClose={() => setDraft(null)}
        size={860}
        title={t('issuances.resubmitTitle')}
        destroyOnHidden
      >
        {draft && (
          <>
            <Alert type="warning" showIcon title={t('issuances.refusedHint')} />
            <IssuanceForm draft={draft} onDone={() => setDraft(null)} />
          </>
        )}
      </Drawer>
      {modalHost}
    </>
  );
}
