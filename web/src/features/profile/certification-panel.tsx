import { LIMITS, PHONE, type TTeacherCertificationRequest } from '@aiedu/contracts';
import { Alert, Form, Input, Radio, Select, Skeleton, type FormRule } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { CodeField } from '../sign/code-field';
import { formErrorMessage } from '../sign/sign-api';
import { useCertification, useRequestCertification } from './profile-api';

type Values = Partial<Record<string, string>> & { region: 'mainland' | 'other' };

type RequiredField = 'school' | 'teacherNumber' | 'idNumber' | 'phone' | 'documentNumber' | 'contact';

const STATUS_TYPES = { pending: 'info', certified: 'success', rejected: 'warning' } as const;

/**
 * Teacher certification (spec 3): mainland teachers give school, teacher number, ID number and a
 * phone proven by a code; others a passport or other document and a contact. An administrator
 * certifies or rejects; only certified teachers create courses.
 */
export function CertificationPanel() {
  const { t } = useTranslation('profile');
  const current = useCertification();
  const request = useRequestCertification();
  const formName = `profile-certification${useId()}`;
  const [form] = Form.useForm<Values>();
  const region = Form.useWatch('region', form) ?? 'mainland';
  const [error, setError] = useState<string>();
  const required = (field: RequiredField): FormRule => ({
    required: true,
    whitespace: true,
    message: t(`certification.required.${field}`),
  });

  if (current.isPending) return <Skeleton active />;
  const latest = current.data;

  function submit(values: Values) {
    setError(undefined);
    const body = (
      values.region === 'mainland'
        ? {
            region: 'mainland',
            schoolName: values.schoolName,
            teacherNumber: values.teacherNumber,
            idNumber: values.idNumber,
            phone: values.phone,
            verifyCode: values.verifyCode,
          }
        : {
            region: 'other',
            schoolName: values.schoolName,
            documentType: values.documentType,
            documentNumber: values.documentNumber,
            contact: values.contact,
          }
    ) as TTeacherCertificationRequest;
    request.mutate(body, {
      onSuccess: () => toast.success(t('certification.sent')),
      onError: (failure) => setError(formErrorMessage(failure)),
    });
  }

  return (
    <>
      {latest && (
        <Alert
          className="profile-contact"
          type={STATUS_TYPES[latest.status]}
          showIcon
          title={t(`certification.status.${latest.status}`)}
          description={latest.reason || undefined}
        />
      )}
      {latest?.status !== 'certified' && latest?.status !== 'pending' && (
        <Form
          form={form}
          name={formName}
          layout="vertical"
          requiredMark={false}
          initialValues={{ region: 'mainland', documentType: 'passport' }}
          onFinish={submit}
        >
          <Form.Item label={t('certification.region')} name="region">
            <Radio.Group
              options={[
                { value: 'mainland', label: t('certification.mainland') },
                { value: 'other', label: t('certification.other') },
              ]}
            />
          </Form.Item>
          <Form.Item label={t('certification.school')} name="schoolName" rules={[required('school')]}>
            <Input maxLength={LIMITS.schoolName} showCount />
          </Form.Item>
          {region === 'mainland' ? (
            <>
              <Form.Item
                label={t('certification.teacherNumber')}
                name="teacherNumber"
                rules={[required('teacherNumber')]}
              >
                <Input maxLength={50} />
              </Form.Item>
              <Form.Item
                label={t('certification.idNumber')}
                name="idNumber"
                rules={[
                  required('idNumber'),
                  { pattern: /^\d{17}[\dXx]$/, message: t('certification.idNumberInvalid') },
                ]}
              >
                <Input maxLength={18} autoComplete="off" />
              </Form.Item>
              <Form.Item
                label={t('certification.phone')}
                name="phone"
                rules={[required('phone'), { pattern: PHONE, message: t('certification.phoneInvalid') }]}
              >
                <Input inputMode="tel" maxLength={LIMITS.phone} autoComplete="tel" />
              </Form.Item>
              <CodeField formName={formName} targetField="phone" scene="BIND" />
            </>
          ) : (
            <>
              <Form.Item label={t('certification.documentType')} name="documentType">
                <Select
                  options={[
                    { value: 'passport', label: t('certification.passport') },
                    { value: 'other', label: t('certification.otherDocument') },
                  ]}
                />
              </Form.Item>
              <Form.Item
                label={t('certification.documentNumber')}
                name="documentNumber"
                rules={[required('documentNumber')]}
              >
                <Input maxLength={50} autoComplete="off" />
              </Form.Item>
              <Form.Item label={t('certification.contact')} name="contact" rules={[required('contact')]}>
                <Input maxLength={100} />
              </Form.Item>
            </>
          )}
          <FormError message={error} />
          <Button kind="primary" size="large" htmlType="submit" loading={request.isPending}>
            {t('certification.submit')}
          </Button>
        </Form>
      )}
    </>
  );
}
