import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Select, Space, Upload } from 'antd';
import { Table } from '../../ui/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { toast } from '../../app/feedback';
import { ADMIN_API, downloadXlsx, useSchoolOptions } from './admin-api';
import type { PersonKind } from './person-drawer';

interface ImportReport {
  total: number;
  imported: number;
  problems: { row: number; reason: string; message: string }[];
}

/**
 * Batch import from xlsx or CSV: the template in the administrator's language, a dry run that lists every bad
 * row with its number and reason, then the import itself, which takes every row or none.
 */
export function ImportDialog({ kind, onClose }: { kind: PersonKind; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const client = useQueryClient();
  const schools = useSchoolOptions();
  const [schoolId, setSchoolId] = useState<string | undefined>();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [busy, setBusy] = useState(false);
  const path = kind === 'teacher' ? ADMIN_API.teachers : ADMIN_API.students;
  const school = schoolId ?? (schools.data?.length === 1 ? schools.data[0]?.id : undefined);

  async function send(dryRun: boolean) {
    if (!file || !school) return;
    const body = new FormData();
    body.append('file', file);
    setBusy(true);
    try {
      const result = await api.post<ImportReport>(`${path}/import`, body, {
        query: { schoolId: school, dryRun: String(dryRun) },
      });
      setReport(result);
      if (!dryRun && result.imported > 0) {
        toast.success(t('import.done', { count: result.imported }));
        await client.invalidateQueries({ queryKey: [path] });
        await client.invalidateQueries({ queryKey: [ADMIN_API.classes] });
        onClose();
      }
    } finally {
      setBusy(false);
    }
  }

  const checked = report !== null && report.problems.length === 0 && report.total > 0;
  return (
    <Modal
      open
      width={720}
      title={t(kind === 'teacher' ? 'import.titleTeachers' : 'import.titleStudents')}
      onCancel={onClose}
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button disabled={!file || !school} loading={busy && !checked} onClick={() => void send(true)}>
            {t('import.check')}
          </Button>
          <Button type="primary" disabled={!checked} loading={busy && checked} onClick={() => void send(false)}>
            {t('import.run', { count: report?.total ?? 0 })}
          </Button>
        </Space>
      }
    >
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        <p>{t('import.intro')}</p>
        <Button
          icon={<DownloadOutlined />}
          onClick={() => void downloadXlsx(`${path}/template`, `${kind}s-template.xlsx`)}
        >
          {t('import.template')}
        </Button>
        {(schools.data?.length ?? 0) > 1 && (
          <Select
            aria-label={t('people.school')}
            placeholder={t('people.school')}
            style={{ width: '100%' }}
            value={schoolId}
            onChange={(id: string) => {
              setSchoolId(id);
              setReport(null);
            }}
            options={(schools.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          />
        )}
        <Upload.Dragger
          accept=".xlsx,.csv"
          maxCount={1}
          beforeUpload={(chosen) => {
            setFile(chosen);
            setReport(null);
            return false;
          }}
          onRemove={() => {
            setFile(null);
            setReport(null);
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p>{t('import.drop')}</p>
        </Upload.Dragger>
        {report && report.problems.length === 0 && (
          <Alert type="success" showIcon message={t('import.clean', { count: report.total })} />
        )}
        {report && report.problems.length > 0 && (
          <>
            <Alert type="error" showIcon message={t('import.problems', { count: report.problems.length })} />
            <div className="admin-problems">
              <Table
                size="small"
                rowKey={(p) => `${p.row}-${p.reason}`}
                pagination={false}
                dataSource={report.problems}
                columns={[
                  { title: t('import.row'), dataIndex: 'row', width: 80 },
                  { title: t('import.reason'), dataIndex: 'message' },
                ]}
              />
            </div>
          </>
        )}
      </Space>
    </Modal>
  );
}
