import { EDU_STAGES, STAGE_YEARS, ZCreateClassRequest } from '@aiedu/contracts';
import { Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { schemaRule } from '../../ui/form-rules';
import { SchoolField } from './account-fields';
import { FormDrawer } from './form-drawer';
import { ADMIN_API, useAdminMutation, useSchoolOptions } from './admin-api';

interface Values {
  schoolId: string;
  eduStage: (typeof EDU_STAGES)[number];
  grade: number;
  className: string;
}

/** A new class: school, stage, grade (its start year follows) and name. */
export function ClassDrawer({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<Values>();
  const schools = useSchoolOptions();
  const stage = Form.useWatch('eduStage', form);
  const save = useAdminMutation((values: Values) => api.post(ADMIN_API.classes, values), [ADMIN_API.classes], onClose);
  return (
    <FormDrawer
      title={t('classes.new')}
      saving={save.isPending}
      form={form}
      initialValues={{
        eduStage: 'primary',
        grade: 1,
        schoolId: schools.data?.length === 1 ? schools.data[0]?.id : undefined,
      }}
      onFinish={(values) => save.mutate(values)}
      onClose={onClose}
    >
      <SchoolField label={t('classes.school')} />
      <Form.Item
        name="eduStage"
        label={t('classes.eduStage')}
        rules={[{ required: true, message: t('form.required') }]}
      >
        <Select options={EDU_STAGES.map((s) => ({ value: s, label: t(`stages.${s}`) }))} />
      </Form.Item>
      <Form.Item
        name="grade"
        label={t('classes.grade')}
        rules={[
          { required: true, type: 'number', min: 1, max: STAGE_YEARS[stage ?? 'primary'], message: t('form.grade') },
        ]}
      >
        <InputNumber min={1} max={STAGE_YEARS[stage ?? 'primary']} />
      </Form.Item>
      <Form.Item
        name="className"
        label={t('classes.className')}
        rules={[schemaRule(ZCreateClassRequest.shape.className, t('form.className'))]}
      >
        <Input maxLength={30} />
      </Form.Item>
    </FormDrawer>
  );
}
