import {
  CONTAINER_TYPES,
  hasPermission,
  LIMITS,
  QUOTA_FIELDS,
  ZCreateCustomerRequest,
  type QuotaField,
  type TCustomer,
  type TCoursePackage,
  type TSubCustomerLimits,
  type TPage,
} from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Col, Form, Input, InputNumber, Row, Select, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { schemaRule } from '../../ui/form-rules';
import { encodePassword } from '../../ui/password-encoding';
import { RegionCascader } from '../../ui/region-cascader';
import { useSessionRoles } from '../../app/session';
import { useAdminMutation } from './admin-api';
import { CATALOGUE_API } from './catalogue-api';
import { InitialPasswordField } from './account-fields';
import { FormDrawer } from './form-drawer';

type Values = Partial<Record<QuotaField, number | null>> & {
  code?: string;
  name: string;
  remark?: string;
  region?: string[];
  containerTypes?: string[];
  coursePackages?: string[];
  adminUsername?: string;
  adminName?: string;
  adminPassword?: string;
};

const F = ZCreateCustomerRequest.shape;

/**
 * Creates or edits a customer (or a sub-customer under `path`): quotas, offer, region and its administrator. With
 * `limits` (a sub-customer's parent's), each quota is capped at the parent's and required where the parent has one,
 * only the parent's container types are offered, and a new sub-customer starts with the parent's limits.
 */
export function CustomerDrawer({
  path,
  customer,
  limits,
  onClose,
}: {
  path: string;
  customer: TCustomer | null;
  limits?: TSubCustomerLimits | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<Values>();
  // Course packages are the course catalogue's: its keepers give them here too, the same record as the package's.
  const givesPackages = hasPermission(useSessionRoles(), 'course.catalogue');
  const packages = useQuery({
    queryKey: [CATALOGUE_API.packages, { size: 100 }],
    queryFn: () => api.get<TPage<TCoursePackage>>(CATALOGUE_API.packages, { query: { size: 100 } }),
    enabled: givesPackages,
  });
  const save = useAdminMutation(
    ({ region = [], adminPassword, code, adminUsername, adminName, coursePackages, ...values }: Values) => {
      const [country = '', province = '', city = '', district = ''] = region;
      const body = { ...values, country, province, city, district, ...(givesPackages ? { coursePackages } : {}) };
      return customer
        ? api.put(`${path}/${customer.id}`, body)
        : api.post(path, {
            ...body,
            code,
            adminUsername,
            adminName,
            adminPassword: encodePassword(adminPassword ?? ''),
          });
    },
    [path, CATALOGUE_API.packages],
    onClose,
  );
  const initial: Values = customer
    ? {
        ...customer,
        region: [customer.country, customer.province, customer.city, customer.district].filter(Boolean),
        coursePackages: customer.coursePackages.map((p) => p.id),
      }
    : limits
      ? { name: '', ...limits, coursePackages: [] }
      : { name: '', containerTypes: ['BASIC'], coursePackages: [] };
  const quotaRules = (limit: number | null | undefined): FormRule[] =>
    limit == null
      ? []
      : [{ required: true, type: 'number', max: limit, message: t('customers.parentLimit', { max: limit }) }];
  const containerTypes = limits?.containerTypes ?? CONTAINER_TYPES;
  return (
    <FormDrawer
      title={t(customer ? 'customers.edit' : 'customers.new')}
      width={560}
      saving={save.isPending}
      form={form}
      initialValues={initial}
      onFinish={(values) => save.mutate(values)}
      onClose={onClose}
    >
      <Form.Item
        name="code"
        label={t('customers.code')}
        rules={customer ? [] : [schemaRule(F.code, t('form.customerCode'))]}
      >
        <Input disabled={customer !== null} maxLength={LIMITS.customerCode} />
      </Form.Item>
      <Form.Item name="name" label={t('customers.name')} rules={[schemaRule(F.name, t('form.name'))]}>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="region" label={t('customers.region')}>
        <RegionCascader label={t('customers.region')} />
      </Form.Item>
      <Row gutter={12}>
        {QUOTA_FIELDS.map((quota) => {
          const limit = limits?.[quota];
          return (
            <Col span={12} key={quota}>
              <Form.Item
                name={quota}
                label={t(`customers.${quota}`)}
                extra={limit == null ? t('customers.noLimit') : t('customers.parentLimit', { max: limit })}
                rules={quotaRules(limit)}
              >
                <InputNumber min={0} max={limit ?? undefined} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          );
        })}
      </Row>
      <Form.Item
        name="containerTypes"
        label={t('customers.containerTypes')}
        extra={limits ? t('customers.parentTypes') : undefined}
      >
        <Select mode="multiple" options={containerTypes.map((c) => ({ value: c, label: t(`containerTypes.${c}`) }))} />
      </Form.Item>
      {givesPackages && (
        <Form.Item name="coursePackages" label={t('customers.coursePackages')}>
          <Select
            mode="multiple"
            optionFilterProp="label"
            loading={packages.isFetching}
            options={(packages.data?.list ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
        </Form.Item>
      )}
      <Form.Item name="remark" label={t('customers.remark')} rules={[{ max: LIMITS.notes, message: t('form.notes') }]}>
        <Input.TextArea maxLength={LIMITS.notes} showCount rows={2} />
      </Form.Item>
      {!customer && (
        <>
          <Form.Item
            name="adminUsername"
            label={t('customers.adminUsername')}
            rules={[schemaRule(F.adminUsername, t('form.username'))]}
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="adminName"
            label={t('customers.adminName')}
            rules={[schemaRule(F.adminName, t('form.realName'))]}
          >
            <Input />
          </Form.Item>
          <InitialPasswordField name="adminPassword" />
        </>
      )}
    </FormDrawer>
  );
}
