import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, List, Tag, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, serverDiskFull } from '../../app/api-client';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { useEditor } from './editor-context';
import { packages, projectKeys, usePackageOperations, usePackages } from './project-api';
import { SearchInput, usePageButtons } from '../../ui/named-icons';

const COLOURS: Record<string, string> = { success: 'success', fail: 'error', cancelled: 'default' };

/** Python packages of the project: installed list, install and uninstall with their states and pip's reason. */
export function PackagesPanel() {
  const { t } = useTranslation('project');
  const pageButtons = usePageButtons();
  const { projectId, canEdit } = useEditor();
  const client = useQueryClient();
  const installed = usePackages(projectId, canEdit);
  const operations = usePackageOperations(projectId, canEdit);
  const [filter, setFilter] = useState('');
  const [form] = Form.useForm<{ name: string }>();
  const [refusal, setRefusal] = useState<string>();
  /** Asks for an operation; a refusal is shown and the typed name kept. */
  const run = async (kind: 'install' | 'uninstall', name: string) => {
    setRefusal(undefined);
    try {
      await packages.run(projectId, kind, name);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const disk = typeof error.body === 'object' && serverDiskFull(error.body.data);
      setRefusal(disk ? t('runtime.serverDiskFull') : error.message);
      return false;
    }
    await client.invalidateQueries({ queryKey: projectKeys.operations(projectId) });
    return true;
  };
  const busy = operations.data?.some((o) => ['waiting', 'installing', 'uninstalling'].includes(o.state));
  const wasBusy = useRef(false);
  useEffect(() => {
    // An operation just finished: the installed list changed.
    if (wasBusy.current && !busy) void client.invalidateQueries({ queryKey: projectKeys.packages(projectId) });
    wasBusy.current = Boolean(busy);
  }, [busy, client, projectId]);

  return (
    <div className="packages-panel">
      <Form
        form={form}
        layout="inline"
        onFinish={async ({ name }) => {
          if (await run('install', name.trim())) form.resetFields();
        }}
      >
        <Form.Item
          name="name"
          label={t('packages.name')}
          rules={[{ required: true, whitespace: true, message: t('packages.name') }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Button kind="primary" htmlType="submit">
          {t('packages.install')}
        </Button>
      </Form>
      <FormError message={refusal} />
      <p className="panel-hint">{t('packages.restartHint')}</p>
      <h3>{t('packages.operations')}</h3>
      <List
        size="small"
        dataSource={operations.data ?? []}
        renderItem={(op) => (
          <List.Item
            actions={
              op.state === 'waiting'
                ? [
                    <Button
                      key="cancel"
                      size="small"
                      onClick={() => void packages.cancel(projectId, op.id).then(() => operations.refetch())}
                    >
                      {t('packages.cancel')}
                    </Button>,
                  ]
                : []
            }
          >
            <List.Item.Meta
              title={`${t(op.kind === 'install' ? 'packages.install' : 'packages.uninstall')} ${op.name}`}
              description={
                op.state === 'fail' ? (
                  // No reason from pip: the operation's server process stopped before pip answered.
                  <pre className="panel-error">{op.message || t('packages.interrupted')}</pre>
                ) : null
              }
            />
            <Tag color={COLOURS[op.state] ?? 'processing'} data-package-state={op.state}>
              {t(`packages.state.${op.state}`)}
            </Tag>
          </List.Item>
        )}
      />
      <h3>{t('packages.installed')}</h3>
      <SearchInput
        aria-label={t('packages.filter')}
        placeholder={t('packages.filter')}
        onChange={(e) => setFilter(e.target.value.toLowerCase())}
      />
      <List
        size="small"
        loading={installed.isLoading}
        dataSource={(installed.data ?? []).filter((p) => p.name.toLowerCase().includes(filter))}
        pagination={{ pageSize: 10, size: 'small', itemRender: pageButtons }}
        renderItem={(p) => (
          <List.Item
            actions={
              p.provided
                ? [
                    <Tooltip key="provided" title={t('packages.providedHint')}>
                      <Tag>{t('packages.provided')}</Tag>
                    </Tooltip>,
                  ]
                : [
                    <Button key="remove" size="small" onClick={() => void run('uninstall', p.name)}>
                      {t('packages.uninstall')}
                    </Button>,
                  ]
            }
          >
            {p.name} <Tag>{p.version}</Tag>
          </List.Item>
        )}
      />
    </div>
  );
}
