import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import type { TBatchRegisterResult, TBatchRowError } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Space, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { BatchClean, BatchDone, BatchProblems } from './batch-report';
import { BATCH_CODES, groupCalls, groupKeys } from './group-api';
import { refusalMessage } from '../../app/api-client';
import { refusalData } from './group-errors';

/**
 * Accounts from a spreadsheet: the template in the owner's language, a dry run over the file that lists every bad
 * sheet row, then the registration of all rows or none.
 */
export function BatchXlsx({ groupId }: { groupId: string }) {
  const { t } = useTranslation('group');
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [checked, setChecked] = useState<TBatchRegisterResult | null>(null);
  const [problems, setProblems] = useState<TBatchRowError[]>([]);
  const [refusal, setRefusal] = useState<string>();
  const [busy, setBusy] = useState<'check' | 'register' | 'template' | null>(null);
  const [done, setDone] = useState<number | null>(null);
  const clean = checked !== null && checked.errors.length === 0 && checked.total > 0;

  const forget = () => {
    setChecked(null);
    setProblems([]);
    setRefusal(undefined);
  };
  const send = async (dryRun: boolean) => {
    if (!file) return;
    forget();
    setBusy(dryRun ? 'check' : 'register');
    try {
      const result = await groupCalls.batchRegisterXlsx(groupId, file, dryRun);
      if (dryRun) {
        setChecked(result);
        setProblems(result.errors);
      } else {
        setDone(result.created);
        await client.invalidateQueries({ queryKey: groupKeys.all });
      }
    } catch (error) {
      const data = refusalData<{ errors?: TBatchRowError[]; reason?: string }>(error);
      setProblems(data?.errors ?? []);
      setRefusal(data?.reason === 'missingColumns' ? t('batch.missingColumns') : refusalMessage(error, BATCH_CODES));
    } finally {
      setBusy(null);
    }
  };
  const template = async () => {
    setBusy('template');
    try {
      await groupCalls.template(t('batch.templateFile'));
    } finally {
      setBusy(null);
    }
  };

  if (done !== null) {
    return (
      <BatchDone
        created={done}
        usernames={[]}
        onAgain={() => {
          setFile(null);
          forget();
          setDone(null);
        }}
      />
    );
  }

  return (
    <Space orientation="vertical" size="middle" className="group-batch-xlsx">
      <Button icon={<DownloadOutlined />} loading={busy === 'template'} onClick={() => void template()}>
        {t('batch.template')}
      </Button>
      <Upload.Dragger
        accept=".xlsx"
        maxCount={1}
        fileList={file ? [{ uid: 'batch', name: file.name, status: 'done' }] : []}
        beforeUpload={(chosen) => {
          setFile(chosen);
          forget();
          return false;
        }}
        onRemove={() => {
          setFile(null);
          forget();
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p>{t('batch.drop')}</p>
      </Upload.Dragger>
      {problems.length > 0 && <BatchProblems errors={problems} rowLabel="sheetRow" />}
      {clean && <BatchClean total={checked.total} />}
      <FormError message={refusal} />
      <Space wrap>
        <Button disabled={!file || busy !== null} loading={busy === 'check'} onClick={() => void send(true)}>
          {t('batch.check')}
        </Button>
        <Button
          kind="primary"
          disabled={!clean || busy !== null}
          loading={busy === 'register'}
          onClick={() => void send(false)}
        >
          {t('batch.register', { count: clean ? checked.total : 0 })}
        </Button>
      </Space>
    </Space>
  );
}
