import type { TBatchRowError } from '@aiedu/contracts';
import { Alert, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { Table } from '../../ui/table';

/** What a check or a refused registration found: every bad row with its number, the field and the reason. */
export function BatchProblems({ errors, rowLabel }: { errors: TBatchRowError[]; rowLabel: 'row' | 'sheetRow' }) {
  const { t } = useTranslation('group');
  return (
    <div className="group-batch-problems">
      <Alert type="error" showIcon title={t('batch.problems', { count: errors.length })} />
      <Table<TBatchRowError>
        size="small"
        rowKey={(e) => `${e.row}-${e.field}-${e.reason}`}
        pagination={errors.length > 20 ? { pageSize: 20 } : false}
        dataSource={errors}
        columns={[
          { title: t(`batch.${rowLabel}`), dataIndex: 'row', width: 90 },
          { title: t('batch.username'), key: 'username', render: (_, e) => e.username || '—' },
          { title: t('batch.field'), key: 'field', render: (_, e) => t(`batch.${e.field}`) },
          { title: t('batch.reason'), key: 'reason', render: (_, e) => t(`batch.reasons.${e.reason}`) },
        ]}
      />
    </div>
  );
}

/** A clean check: every row may be registered, and the registration takes them all or none. */
export function BatchClean({ total }: { total: number }) {
  const { t } = useTranslation('group');
  return <Alert type="success" showIcon title={t('batch.clean', { count: total })} />;
}

/** The accounts created; they are members of the group already. */
export function BatchDone({
  created,
  usernames,
  onAgain,
}: {
  created: number;
  usernames: string[];
  onAgain: () => void;
}) {
  const { t } = useTranslation('group');
  return (
    <Result
      status="success"
      title={<h3 className="group-result-title">{t('batch.done', { count: created })}</h3>}
      subTitle={t('batch.doneHint')}
      extra={<Button onClick={onAgain}>{t('batch.again')}</Button>}
    >
      {usernames.length > 0 && (
        <ul className="group-batch-created" aria-label={t('batch.createdList')}>
          {usernames.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      )}
    </Result>
  );
}
