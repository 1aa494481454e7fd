import { COURSE_API, EMAIL, LIMITS, PHONE, UI_SIZES, type TCourseApplyRequest } from '@aiedu/contracts';
import { Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { toast } from '../../app/feedback';

/** "Apply for courses": name, phone and email for the administrators, who follow up within 3 working days. */
export function CourseApplyButton() {
  const { t } = useTranslation('course');
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<TCourseApplyRequest>();
  const submit = async (values: TCourseApplyRequest) => {
    setBusy(true);
    try {
      await api.post(COURSE_API.apply, values);
      toast.success(t('apply.done'));
      setOpen(false);
      form.resetFields();
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="large" onClick={() => setOpen(true)}>
        {t('apply.open')}
      </Button>
      <Modal
        open={open}
        title={t('apply.title')}
        width={UI_SIZES.confirmDialogWidth}
        onCancel={() => setOpen(false)}
        footer={null}
        destroyOnHidden
      >
        <p>{t('apply.lead')}</p>
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item
            name="name"
            label={t('apply.name')}
            rules={[{ required: true, whitespace: true, max: LIMITS.realName }]}
          >
            <Input maxLength={LIMITS.realName} autoComplete="name" />
          </Form.Item>
          <Form.Item
            name="phone"
            label={t('apply.phone')}
            rules={[{ required: true, pattern: PHONE, message: t('apply.phoneInvalid') }]}
          >
            <Input maxLength={LIMITS.phone} inputMode="numeric" autoComplete="tel" />
          </Form.Item>
          <Form.Item
            name="email"
            label={t('apply.email')}
            rules={[{ required: true, pattern: EMAIL, message: t('apply.emailInvalid') }]}
          >
            <Input autoComplete="email" />
          </Form.Item>
          <Button type="primary" htmlType="submit" size="large" loading={busy}>
            {t('apply.submit')}
          </Button>
        </Form>
      </Modal>
    </>
  );
}
