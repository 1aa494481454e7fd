import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { AdminShell } from './admin-shell';
import { ListTable, SearchBar } from './list-controls';
import { SECURITY_API } from './security-api';
import { useListQuery } from './use-list-query';

interface OutboxItem {
  id: string;
  channel: 'sms' | 'email';
  target: string;
  subject: string;
  body: string;
  deliveredBy: string;
  delivered: boolean;
  createdAt: string;
}

/**
 * The outbox: every code and notice the platform sent, newest first. Without an SMS or SMTP provider this is how a
 * self-hosted school's staff read a code to a pupil; with one, the code is masked here.
 */
export function OutboxPage() {
  const { t } = useTranslation('security');
  const list = useListQuery<OutboxItem>(SECURITY_API.outbox);
  return (
    <AdminShell screen="outbox">
      <p>{t('outbox.lead')}</p>
      <div className="admin-toolbar">
        <SearchBar label={t('outbox.search')} onSearch={(keyword) => list.setFilters({ keyword })} />
      </div>
      <ListTable<OutboxItem>
        list={list}
        columns={[
          { title: t('outbox.time'), dataIndex: 'createdAt', render: (value: string) => formatDateTime(value) },
          {
            title: t('outbox.channel'),
            dataIndex: 'channel',
            render: (value: 'sms' | 'email') => t(`outbox.${value}`),
          },
          { title: t('outbox.target'), dataIndex: 'target' },
          { title: t('outbox.message'), dataIndex: 'body' },
          {
            title: t('outbox.delivery'),
            key: 'delivery',
            render: (_, item) =>
              item.delivered ? <Tag color="green">{item.deliveredBy}</Tag> : <Tag>{t('outbox.keptHere')}</Tag>,
          },
        ]}
      />
    </AdminShell>
  );
}
