import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { GROUP_LIMITS, type TBatchRegisterResult, type TBatchRegisterRow, type TBatchRowError } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { encodePassword } from '../../ui/password-encoding';
import { BatchClean, BatchDone, BatchProblems } from './batch-report';
import { BATCH_CODES, groupCalls, groupKeys } from './group-api';
import { refusalMessage } from '../../app/api-client';
import { refusalData } from './group-errors';

interface Row {
  username?: string;
  phone?: string;
  password?: string;
}

const EMPTY_ROWS: Row[] = [{}, {}, {}];
const FIELDS = ['username', 'phone', 'password'] as const;

/** The rows that hold anything, each with its number in the form (1-based), as the server will number them. */
function filledRows(rows: Row[]): { number: number; row: Row }[] {
  return rows
    .map((row, index) => ({ number: index + 1, row }))
    .filter(({ row }) => FIELDS.some((field) => row[field]?.trim()));
}

const toRequest = (row: Row): TBatchRegisterRow => ({
  username: row.username?.trim() ?? '',
  phone: row.phone?.trim() ?? '',
  password: encodePassword(row.password ?? ''),
});

/**
 * Accounts typed row by row (username, phone, password). Blank rows are left out. "Check" asks the server for a dry
 * run, which finds every bad row (format, duplicates in the batch, accounts that exist); "Register" stays off until
 * the rows as they stand have passed a check, and the server takes all of them or none.
 */
export function BatchRowsForm({ groupId }: { groupId: string }) {
  const { t } = useTranslation('group');
  const client = useQueryClient();
  const [form] = Form.useForm<{ rows: Row[] }>();
  const [busy, setBusy] = useState<'check' | 'register' | null>(null);
  const [checked, setChecked] = useState<{ key: string; result: TBatchRegisterResult } | null>(null);
  const [problems, setProblems] = useState<TBatchRowError[]>([]);
  const [refusal, setRefusal] = useState<string>();
  const [done, setDone] = useState<{ created: number; usernames: string[] } | null>(null);
  const rows = Form.useWatch('rows', form) ?? EMPTY_ROWS;
  const key = JSON.stringify(filledRows(rows));
  const clean = checked !== null && checked.key === key && checked.result.errors.length === 0;

  /** Marks each bad row's field, with the form's row numbers in place of the batch's positions. */
  const show = (errors: TBatchRowError[], sent: { number: number }[]) => {
    const numbered = errors.map((e) => ({ ...e, row: sent[e.row - 1]?.number ?? e.row }));
    setProblems(numbered);
    form.setFields(
      numbered.map((e) => ({ name: ['rows', e.row - 1, e.field], errors: [t(`batch.reasons.${e.reason}`)] })),
    );
  };

  const send = async (dryRun: boolean) => {
    const sent = filledRows(form.getFieldValue('rows') as Row[]);
    setRefusal(undefined);
    setProblems([]);
    form.setFields(
      (form.getFieldValue('rows') as Row[]).flatMap((_, index) =>
        FIELDS.map((field) => ({ name: ['rows', index, field], errors: [] })),
      ),
    );
    if (sent.length === 0) return setRefusal(t('batch.noRows'));
    setBusy(dryRun ? 'check' : 'register');
    try {
      const result = await groupCalls.batchRegister(
        groupId,
        sent.map(({ row }) => toRequest(row)),
        dryRun,
      );
      if (dryRun) {
        setChecked({ key: JSON.stringify(sent), result });
        show(result.errors, sent);
      } else {
        setDone({ created: result.created, usernames: sent.map(({ row }) => row.username?.trim() ?? '') });
        await client.invalidateQueries({ queryKey: groupKeys.all });
      }
    } catch (error) {
      const data = refusalData<{ errors?: TBatchRowError[] }>(error);
      if (data?.errors) show(data.errors, sent);
      setRefusal(refusalMessage(error, BATCH_CODES));
    } finally {
      setBusy(null);
    }
  };

  if (done) {
    return (
      <BatchDone
        created={done.created}
        usernames={done.usernames}
        onAgain={() => {
          form.resetFields();
          setChecked(null);
          setDone(null);
        }}
      />
    );
  }

  return (
    <Form form={form} initialValues={{ rows: EMPTY_ROWS }} className="group-batch-rows" autoComplete="off">
      <div className="group-batch-grid group-batch-grid--head" aria-hidden="true">
        <span>{t('batch.number')}</span>
        <span>{t('batch.username')}</span>
        <span>{t('batch.phone')}</span>
        <span>{t('batch.password')}</span>
        <span />
      </div>
      <Form.List name="rows">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field, index) => (
              <div
                key={field.key}
                className="group-batch-grid"
                role="group"
                aria-label={t('batch.rowLabel', { n: index + 1 })}
              >
                <span className="group-batch-grid__number">{index + 1}</span>
                {FIELDS.map((name) => (
                  <Form.Item key={name} name={[field.name, name]} className="group-batch-grid__cell">
                    {name === 'password' ? (
                      <Input.Password
                        aria-label={t('batch.cellLabel', { field: t(`batch.${name}`), n: index + 1 })}
                        autoComplete="new-password"
                        maxLength={20}
                      />
                    ) : (
                      <Input
                        aria-label={t('batch.cellLabel', { field: t(`batch.${name}`), n: index + 1 })}
                        maxLength={name === 'phone' ? 11 : 30}
                      />
                    )}
                  </Form.Item>
                ))}
                <Button
                  kind="icon"
                  icon={<DeleteOutlined />}
                  aria-label={t('batch.removeRow', { n: index + 1 })}
                  disabled={fields.length === 1}
                  onClick={() => remove(field.name)}
                />
              </div>
            ))}
            <Button
              icon={<PlusOutlined />}
              disabled={fields.length >= GROUP_LIMITS.batchRows}
              onClick={() => add({})}
              className="group-batch-add"
            >
              {t('batch.addRow')}
            </Button>
          </>
        )}
      </Form.List>
      {problems.length > 0 && <BatchProblems errors={problems} rowLabel="row" />}
      {clean && <BatchClean total={checked.result.total} />}
      <FormError message={refusal} />
      <Space wrap className="group-batch-actions">
        <Button loading={busy === 'check'} disabled={busy !== null} onClick={() => void send(true)}>
          {t('batch.check')}
        </Button>
        <Button
          kind="primary"
          loading={busy === 'register'}
          disabled={!clean || busy !== null}
          onClick={() => void send(false)}
        >
          {t('batch.register', { count: clean ? checked.result.total : 0 })}
        </Button>
      </Space>
      {!clean && <p className="group-muted">{t('batch.checkFirst')}</p>}
    </Form>
  );
}
