import type { TDiskSpace } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Progress } from 'antd';
import { Trans, useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { formatBytes } from '../../ui/sizes';
import { ADMIN_API } from './admin-api';

const CODE = { code: <code /> };

/**
 * How full the server's disks are: the data folder's (database, stored files, notebooks) against the floor kept
 * free, and the daily backups' when they are on a disk of their own. Read again every minute while open.
 */
export function DiskCard() {
  const { t } = useTranslation('admin');
  const space = useQuery({
    queryKey: [ADMIN_API.disk],
    queryFn: () => api.get<TDiskSpace>(ADMIN_API.disk),
    refetchInterval: 60_000,
  });
  const data = space.data;
  const floor = data?.floorBytes ?? 0;
  // Where the data disk stands against the floor, as the server counts it.
  const state = data?.state;

  return (
    <Card title={<h2 className="ant-card-head-title">{t('system.disk')}</h2>} size="small">
      {data?.disks.map((disk) => {
        const used = disk.totalBytes > 0 ? Math.round((100 * (disk.totalBytes - disk.freeBytes)) / disk.totalBytes) : 0;
        const label = t(disk.kind === 'data' ? 'system.diskData' : 'system.diskBackups', { path: disk.path });
        return (
          <div key={disk.kind} className="disk-usage">
            <p>
              {t('system.diskFree', {
                disk: label,
                free: formatBytes(disk.freeBytes),
                total: formatBytes(disk.totalBytes),
              })}
            </p>
            <Progress
              percent={used}
              status={disk.kind === 'data' && state === 'low' ? 'exception' : 'normal'}
              aria-label={label}
            />
          </div>
        );
      })}
      {data && (
        <p>
          {state === 'off' ? (
            <Trans t={t} i18nKey="system.diskFloorOff" components={CODE} />
          ) : (
            <Trans t={t} i18nKey="system.diskFloor" values={{ floor: formatBytes(floor) }} components={CODE} />
          )}
        </p>
      )}
      {state === 'low' && <Alert type="error" showIcon title={t('system.diskLow')} />}
      {state === 'near' && <Alert type="warning" showIcon title={t('system.diskNear')} />}
    </Card>
  );
}
