import { PlusOutlined } from '@ant-design/icons';
import { ROLES } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Select, Switch, Typography } from 'antd';
import { Table } from '../../ui/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { useSessionRoles } from '../../app/session';
import { useUserInfo } from '../../app/user-info';
import { AdminShell } from './admin-shell';
import { useAdminMutation, useSchoolOptions } from './admin-api';
import { confirmDanger } from './confirm';
import { FormDrawer } from './form-drawer';
import { SECURITY_API } from './security-api';

interface Provider {
  id: string;
  type: string;
  name: string;
  issuer: string;
  clientId: string;
  scopes: string;
  autoCreate: boolean;
  schoolId: string | null;
  enabled: boolean;
  redirectUri: string;
}

interface Values {
  type: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  autoCreate: boolean;
  schoolId?: string;
}

/**
 * The schools a provider's new accounts may join: those of the administrator's own customer (a super administrator's
 * providers serve the public space, which has none).
 */
function useOwnSchools() {
  const isSuper = useSessionRoles().includes(ROLES.super);
  const schools = useSchoolOptions(!isSuper);
  const customerId = useUserInfo().data?.domainId;
  return isSuper ? undefined : (schools.data ?? []).filter((school) => school.customerId === customerId);
}

function ProviderDrawer({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('security');
  const [form] = Form.useForm<Values>();
  const schools = useOwnSchools();
  const add = useAdminMutation(
    (body: Values) => api.post(SECURITY_API.providers, body),
    [SECURITY_API.providers],
    onClose,
  );
  const required = { required: true, whitespace: true, message: t('providers.required') };
  return (
    <FormDrawer
      title={t('providers.add')}
      width={480}
      saving={add.isPending}
      form={form}
      initialValues={{ scopes: 'openid profile email', autoCreate: true }}
      onFinish={(values) => add.mutate(values)}
      onClose={onClose}
    >
      <Form.Item
        name="type"
        label={t('providers.type')}
        extra={t('providers.typeHint')}
        rules={[required, { pattern: /^[a-z0-9_-]{2,30}$/, message: t('providers.typeInvalid') }]}
      >
        <Input maxLength={30} />
      </Form.Item>
      <Form.Item name="name" label={t('providers.name')} rules={[required, { max: 50 }]}>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item
        name="issuer"
        label={t('providers.issuer')}
        rules={[required, { type: 'url', message: t('providers.issuerInvalid') }]}
      >
        <Input placeholder={t('providers.issuerExample')} />
      </Form.Item>
      <Form.Item name="clientId" label={t('providers.clientId')} rules={[required]}>
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="clientSecret" label={t('providers.clientSecret')} rules={[required]}>
        <Input.Password maxLength={500} autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="scopes" label={t('providers.scopes')}>
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="autoCreate" label={t('providers.autoCreate')} valuePropName="checked">
        <Switch />
      </Form.Item>
      {schools && (
        <Form.Item name="schoolId" label={t('providers.school')} extra={t('providers.schoolHint')}>
          <Select
            allowClear
            placeholder={t('providers.noSchool')}
            options={schools.map((school) => ({ value: school.id, label: school.name }))}
          />
        </Form.Item>
      )}
    </FormDrawer>
  );
}

/** OpenID Connect providers of the customer: its pupils and staff sign in with their school accounts. */
export function IdentityProvidersPage() {
  const { t } = useTranslation('security');
  const [adding, setAdding] = useState(false);
  const schools = useOwnSchools();
  const [modal, modalHost] = Modal.useModal();
  const providers = useQuery({
    queryKey: [SECURITY_API.providers],
    queryFn: () => api.get<Provider[]>(SECURITY_API.providers),
  });
  const remove = useAdminMutation(
    (id: string) => api.delete(`${SECURITY_API.providers}/${id}`),
    [SECURITY_API.providers],
  );
  return (
    <AdminShell
      screen="identityProviders"
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          {t('providers.add')}
        </Button>
      }
    >
      {modalHost}
      <p>{t('providers.lead')}</p>
      <Table<Provider>
        rowKey="id"
        loading={providers.isFetching}
        dataSource={providers.data ?? []}
        columns={[
          { title: t('providers.name'), dataIndex: 'name' },
          { title: t('providers.type'), dataIndex: 'type' },
          { title: t('providers.issuer'), dataIndex: 'issuer' },
          ...(schools
            ? [
                {
                  title: t('providers.newAccounts'),
                  key: 'school',
                  render: (_: unknown, p: Provider) =>
                    schools.find((school) => school.id === p.schoolId)?.name ?? t('providers.noSchool'),
                },
              ]
            : []),
          {
            title: t('providers.redirectUri'),
            dataIndex: 'redirectUri',
            render: (v: string) => <Typography.Text copyable>{v}</Typography.Text>,
          },
          {
            title: t('common.actions', { ns: 'admin' }),
            key: 'actions',
            render: (_, p) => (
              <Button
                type="link"
                danger
                onClick={() =>
                  confirmDanger(modal, {
                    title: t('providers.removeTitle', { name: p.name }),
                    content: t('providers.removeBody'),
                    okText: t('common.delete', { ns: 'admin' }),
                    cancelText: t('common.cancel', { ns: 'admin' }),
                    onOk: () => remove.mutateAsync(p.id),
                  })
                }
              >
                {t('common.delete', { ns: 'admin' })}
              </Button>
            ),
          },
        ]}
      />
      {adding && <ProviderDrawer onClose={() => setAdding(false)} />}
    </AdminShell>
  );
}
