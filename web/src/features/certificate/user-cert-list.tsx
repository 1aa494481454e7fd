import { CERT_API, CERT_LIMITS, USER_CERT_STATES, type TUserCert } from '@aiedu/contracts';
import { Button, DatePicker, Form, Input, Modal, Space, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchInput } from '../../ui/named-icons';
import { FilterSelect, ListTable, SearchBar } from '../admin/list-controls';
import { useListQuery } from '../admin/use-list-query';
import { formatDateTime } from '../../ui/dates';
import { certCalls, downloadCertPdf, useCertOptions, useIssuingMutation } from './cert-api';
import { UserCertState } from './my-certificates-page';

type Action = { kind: 'revoke' | 'reissue'; cert: TUserCert };

/**
 * Revoking asks for the reason and says the certificate stays verifiable as revoked; re-issuing revokes it too and
 * gives a corrected one (holder's name, what for) a new number.
 */
function UserCertDialog({ action, onClose }: { action: Action | null; onClose: () => void }) {
  const { t } = useTranslation('certificate');
  const [form] = Form.useForm<{ reason: string; holderName?: string; awardFor?: string }>();
  const revoke = useIssuingMutation(certCalls.revoke, t('issued.revokedDone'));
  const reissue = useIssuingMutation(certCalls.reissue, (c) => t('issued.reissuedDone', { number: c.number ?? '' }));
  const kind = action?.kind ?? 'revoke';
  const submit = async (fields: { reason: string; holderName?: string; awardFor?: string }) => {
    if (!action) return;
    const reason = fields.reason.trim();
    if (kind === 'revoke') await revoke.mutateAsync({ userCertId: action.cert.id, reason });
    else {
      const holderName = fields.holderName?.trim();
      const awardFor = fields.awardFor?.trim();
      await reissue.mutateAsync({
        userCertId: action.cert.id,
        reason,
        holderName: holderName && holderName !== action.cert.holderName ? holderName : undefined,
        awardFor: awardFor && awardFor !== action.cert.awardFor ? awardFor : undefined,
      });
    }
    onClose();
  };
  return (
    <Modal
      open={Boolean(action)}
      title={action ? t(`issued.${kind}Title`, { number: action.cert.number ?? '' }) : ''}
      okText={t(`issued.${kind}`)}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: kind === 'revoke', htmlType: 'submit', form: 'cert-user-action' }}
      confirmLoading={revoke.isPending || reissue.isPending}
      onCancel={onClose}
      destroyOnHidden
    >
      <p>{t(`issued.${kind}Body`)}</p>
      {action && (
        <Form
          id="cert-user-action"
          form={form}
          layout="vertical"
          initialValues={{ reason: '', holderName: action.cert.holderName, awardFor: action.cert.awardFor }}
          onFinish={(fields) => void submit(fields).catch(() => undefined)}
        >
          {kind === 'reissue' && (
            <>
              <Form.Item
                name="holderName"
                label={t('fields.holder')}
                rules={[{ required: true, whitespace: true, message: t('issued.holderRequired') }]}
              >
                <Input maxLength={CERT_LIMITS.name} />
              </Form.Item>
              <Form.Item
                name="awardFor"
                label={t('fields.awardFor')}
                rules={[{ required: true, whitespace: true, message: t('form.awardForRequired') }]}
              >
                <Input maxLength={CERT_LIMITS.awardFor} />
              </Form.Item>
            </>
          )}
          <Form.Item
            name="reason"
            label={t('issued.reason')}
            rules={[{ required: true, whitespace: true, message: t('issued.reasonRequired') }]}
          >
            <Input.TextArea rows={3} maxLength={CERT_LIMITS.reason} showCount />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/** Every certificate the caller issued: search by number, holder, template, state and date; revoke and re-issue. */
export function UserCertList() {
  const { t } = useTranslation('certificate');
  const list = useListQuery<TUserCert>(CERT_API.userCert);
  const options = useCertOptions();
  const [action, setAction] = useState<Action | null>(null);
  const columns: TableColumnsType<TUserCert> = [
    { title: t('fields.number'), key: 'number', render: (_, c) => c.number ?? '—' },
    {
      title: t('fields.holder'),
      key: 'holder',
      render: (_, c) => (
        <>
          <div>{c.holderName}</div>
          <div className="cert-muted">{c.username}</div>
        </>
      ),
    },
    { title: t('fields.template'), dataIndex: 'certName' },
    { title: t('fields.awardFor'), dataIndex: 'awardFor' },
    { title: t('fields.issuedAt'), key: 'issuedAt', render: (_, c) => (c.issuedAt ? formatDateTime(c.issuedAt) : '—') },
    {
      title: t('fields.state'),
      key: 'state',
      render: (_, c) => (
        <>
          <UserCertState cert={c} />
          {c.state === 'revoked' && (
            <div className="cert-muted">
              {c.revokedAt && formatDateTime(c.revokedAt)} {c.revokeReason}
              {c.replacedById && (
                <div>
                  {c.replacedByNumber ? t('issued.replacedBy', { number: c.replacedByNumber }) : t('issued.replaced')}
                </div>
              )}
            </div>
          )}
        </>
      ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, c) => (
        <Space size={0} wrap>
          {c.number && (
            <Button type="link" onClick={() => void downloadCertPdf(c)}>
              {t('issued.pdf')}
            </Button>
          )}
          {c.state === 'valid' && c.number && (
            <>
              <Button type="link" onClick={() => setAction({ kind: 'reissue', cert: c })}>
                {t('issued.reissue')}
              </Button>
              <Button type="link" danger onClick={() => setAction({ kind: 'revoke', cert: c })}>
                {t('issued.revoke')}
              </Button>
            </>
          )}
        </Space>
      ),
    },
  ];
  return (
    <>
      <div className="cert-toolbar">
        <SearchInput
          allowClear
          aria-label={t('filters.number')}
          placeholder={t('filters.number')}
          style={{ width: 220 }}
          onSearch={(number) => list.setFilters({ number: number.trim() || undefined })}
        />
        <SearchBar label={t('filters.holder')} onSearch={(keyword) => list.setFilters({ keyword })} />
        <FilterSelect
          label={t('filters.allTemplates')}
          options={(options.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          onChange={(certId) => list.setFilters({ certId })}
        />
        <FilterSelect
          label={t('filters.allStates')}
          width={160}
          options={USER_CERT_STATES.map((s) => ({ value: s, label: t(`userCertStates.${s}`) }))}
          onChange={(state) => list.setFilters({ state })}
        />
        <DatePicker.RangePicker
          aria-label={t('filters.dates')}
          placeholder={[t('filters.from'), t('filters.to')]}
          onChange={(range) =>
            list.setFilters({ from: range?.[0]?.format('YYYY-MM-DD'), to: range?.[1]?.format('YYYY-MM-DD') })
          }
        />
      </div>
      <ListTable list={list} columns={columns} />
      <UserCertDialog action={action} onClose={() => setAction(null)} />
    </>
  );
}
