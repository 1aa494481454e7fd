import { API, WEEKLY_MINUTES_MAX, type TComputeAllowance, type TSetComputeAllowanceRequest } from '@aiedu/contracts';
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../app/api';
import { useAdminMutation } from '../admin-api';
import { FormDrawer } from '../form-drawer';

/** Changes one runtime type's weekly minutes; the users' balances follow at once. */
export function AllowanceDrawer({
  allowance,
  customerId,
  onClose,
}: {
  allowance: TComputeAllowance;
  customerId: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<{ weeklyMinutes: number }>();
  const type = t(`containerTypes.${allowance.runtimeType}`);
  const save = useAdminMutation(
    ({ weeklyMinutes }: { weeklyMinutes: number }) =>
      api.put(API.computeAllowances, {
        customerId,
        runtimeType: allowance.runtimeType,
        weeklyMinutes,
      } satisfies TSetComputeAllowanceRequest),
    [API.computeAllowances],
    onClose,
  );
  return (
    <FormDrawer
      title={t('compute.editTitle', { type })}
      saving={save.isPending}
      form={form}
      initialValues={{ weeklyMinutes: allowance.weeklyMinutes }}
      onFinish={(values) => save.mutate(values)}
      onClose={onClose}
    >
      <Form.Item
        name="weeklyMinutes"
        label={t('compute.weeklyMinutes')}
        extra={t('compute.hint')}
        rules={[{ required: true, type: 'integer', min: 0, max: WEEKLY_MINUTES_MAX, message: t('compute.invalid') }]}
      >
        <InputNumber min={0} max={WEEKLY_MINUTES_MAX} precision={0} suffix={t('compute.unit')} />
      </Form.Item>
    </FormDrawer>
  );
}
