import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import {
  API,
  BANNER_TYPES,
  LIMITS,
  PLATFORM_NAME_MAX,
  ZUpdateSystemConfigRequest,
  type TSystemConfig,
} from '@aiedu/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, Radio, Space, Upload } from 'antd';
import { Trans, useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { browser } from '../../app/browser';
import { toast } from '../../app/feedback';
import { usePlatformBrand } from '../../app/platform';
import { formatDateTime } from '../../ui/dates';
import { formatBytes } from '../../ui/sizes';
import { schemaRule } from '../../ui/form-rules';
import { AdminShell } from './admin-shell';
import { DiskCard } from './disk-card';
import { RuntimeIsolationCard } from './runtime-isolation-card';
import { ADMIN_API, useAdminMutation } from './admin-api';
import { useClearable } from '../../ui/named-icons';

type Choice = 'deployment' | 'on' | 'off';
const SWITCHES = ['isVerifyCode', 'isCustomerSingle'] as const;
/** A change shows on this screen and, through the setting every page reads, in the header at once. */
const REFRESH = [ADMIN_API.systemConfig, API.sysSetting];

interface Values {
  platformName: string;
  isVerifyCode: Choice;
  isCustomerSingle: Choice;
}

const toChoice = (value: boolean | null): Choice => (value === null ? 'deployment' : value ? 'on' : 'off');
const fromChoice = (choice: Choice): boolean | null => (choice === 'deployment' ? null : choice === 'on');

/** The logo every page shows: the current one, a new upload (the banners' rules), or back to the product's own. */
function LogoCard({ config }: { config: TSystemConfig }) {
  const { t } = useTranslation('admin');
  const brand = usePlatformBrand();
  const upload = useAdminMutation((file: File) => {
    const body = new FormData();
    body.append('file', file);
    return api.post(`${ADMIN_API.systemConfig}/logo`, body);
  }, REFRESH);
  const reset = useAdminMutation(() => api.delete(`${ADMIN_API.systemConfig}/logo`), REFRESH);

  return (
    <Card title={<h2 className="ant-card-head-title">{t('system.logo')}</h2>} size="small">
      <p>{t('system.logoHint')}</p>
      <div className="system-logo">
        <img src={brand.logoUrl} alt={t('system.currentLogo')} height={48} />
      </div>
      <Space wrap>
        <Upload
          accept={BANNER_TYPES.map((e) => `.${e}`).join(',')}
          showUploadList={false}
          beforeUpload={(file) => {
            if (file.size > LIMITS.bannerBytes) toast.error(t('home.bannerTooLarge'));
            else upload.mutate(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={upload.isPending}>
            {t('system.uploadLogo')}
          </Button>
        </Upload>
        {config.logoUrl && (
          <Button loading={reset.isPending} onClick={() => reset.mutate()}>
            {t('system.productLogo')}
          </Button>
        )}
      </Space>
    </Card>
  );
}

/**
 * A backup of the whole installation (every school's rows, files, project versions and workspaces), downloaded by
 * the browser itself from a one-minute link, so an archive of gigabytes goes straight to disk.
 */
interface BackupSchedule {
  enabled: boolean;
  dir: string | null;
  at: string | null;
  keep: number | null;
  files: { name: string; bytes: number; modifiedAt: string }[];
  last: {
    day: string;
    startedAt: string;
    finishedAt: string | null;
    file: string | null;
    bytes: number | null;
    error: string | null;
  } | null;
}

/** Commands and variable names in the backup texts. */
const CODE = { code: <code /> };

/** What the daily backups (`BACKUP_DIR`) do, and how the latest went. */
/** Downloads a backup made now, or one kept by name, by following the one-minute link the server gives. */
function useBackupDownload() {
  const { t } = useTranslation('admin');
  return useMutation({
    mutationFn: (file?: string) => api.post<{ url: string }>(`${ADMIN_API.backup}/link`, file ? { file } : undefined),
    onSuccess: ({ url }) => {
      // The answer is an attachment: the browser saves it and this page stays.
      browser.assign(url);
      toast.success(t('system.backupStarted'));
    },
  });
}

function BackupSchedule() {
  const { t } = useTranslation('admin');
  const download = useBackupDownload();
  const schedule = useQuery({
    queryKey: [`${ADMIN_API.backup}/schedule`],
    queryFn: () => api.get<BackupSchedule>(`${ADMIN_API.backup}/schedule`),
  });
  const data = schedule.data;
  if (!data) return null;
  if (!data.enabled) {
    return (
      <p>
        <Trans t={t} i18nKey="system.dailyOff" components={CODE} />
      </p>
    );
  }
  const last = data.last;
  let latest = t('system.dailyNone');
  if (last?.error) latest = t('system.dailyFailed', { day: last.day, error: last.error });
  else if (last?.file && last.finishedAt)
    latest = t('system.dailyLatest', {
      time: formatDateTime(last.finishedAt),
      size: formatBytes(last.bytes ?? 0),
      file: last.file,
    });
  else if (last) latest = t('system.dailyRunning', { time: formatDateTime(last.startedAt) });
  return (
    <>
      <p>{t('system.dailyOn', { at: data.at, dir: data.dir, keep: data.keep })}</p>
      <p>{latest}</p>
      {data.files.length > 0 && (
        <ul className="backup-files" aria-label={t('system.dailyFiles')}>
          {data.files.map((file) => (
            <li key={file.name}>
              <span>
                {file.name} · {formatBytes(file.bytes)}
              </span>
              <Button
                type="link"
                size="small"
                icon={<DownloadOutlined />}
                aria-label={t('system.downloadFile', { name: file.name })}
                loading={download.isPending && download.variables === file.name}
                onClick={() => download.mutate(file.name)}
              >
                {t('system.download')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function BackupCard() {
  const { t } = useTranslation('admin');
  const download = useBackupDownload();
  return (
    <Card title={<h2 className="ant-card-head-title">{t('system.backup')}</h2>} size="small">
      <p>{t('system.backupHint')}</p>
      <BackupSchedule />
      <p>
        <Trans t={t} i18nKey="system.restoreHint" components={CODE} />
      </p>
      <Button
        icon={<DownloadOutlined />}
        loading={download.isPending && download.variables === undefined}
        onClick={() => download.mutate(undefined)}
      >
        {t('system.downloadBackup')}
      </Button>
    </Card>
  );
}

/**
 * The system configuration of the super administrators: the platform's name and logo that every page shows, and
 * the sign-in switches, each following the deployment's configuration until it is set here.
 */
export function SystemConfigPage() {
  const { t } = useTranslation('admin');
  const clearable = useClearable();
  const [form] = Form.useForm<Values>();
  const config = useQuery({
    queryKey: [ADMIN_API.systemConfig],
    queryFn: () => api.get<TSystemConfig>(ADMIN_API.systemConfig),
  });
  const save = useAdminMutation(
    (values: Values) =>
      api.put(ADMIN_API.systemConfig, {
        platformName: values.platformName.trim() || null,
        isVerifyCode: fromChoice(values.isVerifyCode),
        isCustomerSingle: fromChoice(values.isCustomerSingle),
      }),
    REFRESH,
  );
  const data = config.data;
  if (!data) return <AdminShell screen="systemConfig">{null}</AdminShell>;
  const onOff = (value: boolean) => t(value ? 'system.on' : 'system.off');

  return (
    <AdminShell
      screen="systemConfig"
      actions={
        <Button type="primary" htmlType="submit" form="system-config-form" loading={save.isPending}>
          {t('common.save')}
        </Button>
      }
    >
      <div className="admin-cards">
        <Form<Values>
          id="system-config-form"
          form={form}
          className="admin-cards"
          layout="vertical"
          initialValues={{
            platformName: data.platformName ?? '',
            isVerifyCode: toChoice(data.isVerifyCode),
            isCustomerSingle: toChoice(data.isCustomerSingle),
          }}
          onFinish={(values) => save.mutate(values)}
        >
          <Card title={<h2 className="ant-card-head-title">{t('system.name')}</h2>} size="small">
            <Form.Item
              name="platformName"
              label={t('system.platformName')}
              extra={t('system.platformNameHint')}
              rules={[schemaRule(ZUpdateSystemConfigRequest.shape.platformName, t('system.platformNameRule'))]}
            >
              <Input maxLength={PLATFORM_NAME_MAX} showCount allowClear={clearable} />
            </Form.Item>
          </Card>
          <Card title={<h2 className="ant-card-head-title">{t('system.signIn')}</h2>} size="small">
            {SWITCHES.map((name) => (
              <Form.Item key={name} name={name} label={t(`system.${name}`)} extra={t(`system.${name}Hint`)}>
                <Radio.Group
                  aria-label={t(`system.${name}`)}
                  options={[
                    { value: 'deployment', label: t('system.asDeployed', { value: onOff(data.deployment[name]) }) },
                    { value: 'on', label: t('system.on') },
                    { value: 'off', label: t('system.off') },
                  ]}
                />
              </Form.Item>
            ))}
          </Card>
        </Form>
        <LogoCard config={data} />
        <DiskCard />
        <RuntimeIsolationCard />
        <BackupCard />
      </div>
    </AdminShell>
  );
}
