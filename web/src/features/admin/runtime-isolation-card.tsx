import type { TRuntimeIsolation } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Descriptions } from 'antd';
import { Trans, useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { ADMIN_API } from './admin-api';

const CODE = { code: <code /> };

/**
 * How this server's notebook runtimes are kept from its services (the database, Redis, the API) and from each
 * other; a warning with the server's reason, in its own words, when they are not.
 */
export function RuntimeIsolationCard() {
  const { t } = useTranslation('admin');
  const isolation = useQuery({
    queryKey: [ADMIN_API.runtimeIsolation],
    queryFn: () => api.get<TRuntimeIsolation>(ADMIN_API.runtimeIsolation),
  });
  const data = isolation.data;
  return (
    <Card title={<h2 className="ant-card-head-title">{t('system.isolation')}</h2>} size="small">
      {data && (
        <>
          {data.network === 'open' ? (
            <Alert
              type="error"
              showIcon
              title={t('system.isolationOpen')}
              description={
                <>
                  <p>{t('system.isolationReason', { reason: data.reason })}</p>
                  <p>
                    <Trans t={t} i18nKey="system.isolationFix" components={CODE} />
                  </p>
                </>
              }
            />
          ) : (
            <Alert
              type="success"
              showIcon
              title={t(data.network === 'policy' ? 'system.isolationPolicy' : 'system.isolationOn')}
            />
          )}
          <Descriptions
            size="small"
            column={1}
            className="isolation-facts"
            items={[
              {
                key: 'internet',
                label: t('system.isolationInternet'),
                children: t(
                  data.networkMode === 'internet' ? 'system.isolationInternetOpen' : 'system.isolationInternetNone',
                ),
              },
              {
                key: 'processes',
                label: t('system.isolationProcesses'),
                children: t(
                  data.processesHidden ? 'system.isolationProcessesHidden' : 'system.isolationProcessesVisible',
                ),
              },
              {
                key: 'limits',
                label: t('system.isolationLimits'),
                children: t(`system.isolationLimit.${data.limits}`),
              },
            ]}
          />
        </>
      )}
    </Card>
  );
}
