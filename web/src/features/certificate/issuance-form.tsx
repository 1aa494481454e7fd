import { EyeOutlined } from '@ant-design/icons';
import {
  CERT_API,
  CERT_LIMITS,
  ZCreateCertIssuance,
  type TCertIssuanceDetail,
  type TCreateCertIssuance,
} from '@aiedu/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { dayjs } from '../../ui/dates';
import { certCalls, useCertDetail, useCertOptions, useIssuingMutation } from './cert-api';
import { PdfView } from './pdf-view';
import { NO_STUDENTS, StudentPicker, type PickedStudents } from './student-picker';

interface Fields {
  certId?: string;
  awardFor: string;
  issueDate?: ReturnType<typeof dayjs>;
}

/** What a resubmitted issuance starts from: its template, award, date and holders. */
export interface IssuanceDraft {
  certIssId: string;
  certId: string;
  awardFor: string;
  issueDate: string;
  picked: PickedStudents;
}

/** The preview of the first holder's certificate: the template's design drawn as the PDF will be. */
function FirstHolderPreview({
  certId,
  holderName,
  awardFor,
}: {
  certId?: string;
  holderName?: string;
  awardFor: string;
}) {
  const { t } = useTranslation('certificate');
  const detail = useCertDetail(certId);
  const preview = useMutation({
    mutationFn: () =>
      api.download(CERT_API.preview, {
        method: 'POST',
        body: {
          design: detail.data!.design,
          numberRule: detail.data!.numberRule,
          holderName: holderName || undefined,
          awardFor: awardFor || undefined,
        },
      }),
  });
  return (
    <div className="cert-preview">
      <Button
        icon={<EyeOutlined />}
        disabled={!detail.data}
        loading={preview.isPending}
        onClick={() => preview.mutate()}
      >
        {t('form.preview')}
      </Button>
      {(preview.data || preview.isPending) && (
        <div className="cert-card__preview">
          <PdfView
            data={preview.data ?? null}
            loading={preview.isPending}
            label={t('form.previewOf', { name: holderName ?? '' })}
            width={320}
          />
        </div>
      )}
    </div>
  );
}

/**
 * A new issuance, or a refused one corrected (`draft`): template, what for, date and students; spec 5's "at least
 * one student" is told before anything is sent. Says whether the certificates were issued or wait for review.
 */
export function IssuanceForm({ draft, onDone }: { draft?: IssuanceDraft; onDone?: () => void }) {
  const { t } = useTranslation('certificate');
  const [form] = Form.useForm<Fields>();
  const options = useCertOptions();
  const [picked, setPicked] = useState<PickedStudents>(draft?.picked ?? NO_STUDENTS);
  const [noStudents, setNoStudents] = useState(false);
  const certId = Form.useWatch('certId', form);
  const awardFor = Form.useWatch('awardFor', form) ?? '';
  const outcome = (result: TCertIssuanceDetail) =>
    result.state === 'issued' ? t('form.issued', { count: result.holderCount }) : t('form.awaitsReview');
  const send = useIssuingMutation(
    (body: TCreateCertIssuance) =>
      draft ? certCalls.resubmit({ ...body, certIssId: draft.certIssId }) : certCalls.create(body),
    outcome,
  );

  const submit = (fields: Fields) => {
    if (!picked.students.length) {
      setNoStudents(true);
      return;
    }
    const body = ZCreateCertIssuance.parse({
      certId: draft?.certId ?? fields.certId,
      awardFor: fields.awardFor.trim(),
      issueDate: fields.issueDate?.format('YYYY-MM-DD'),
      source: picked.source,
      sourceId: picked.sourceId,
      userIds: picked.students.map((s) => s.userId),
    });
    send.mutate(body, {
      onSuccess: () => {
        if (!draft) {
          form.resetFields();
          setPicked(NO_STUDENTS);
        }
        onDone?.();
      },
    });
  };

  return (
    <Form<Fields>
      form={form}
      layout="vertical"
      className="cert-issue-form"
      initialValues={{
        certId: draft?.certId,
        awardFor: draft?.awardFor ?? '',
        issueDate: dayjs(draft?.issueDate),
      }}
      onFinish={submit}
      onFinishFailed={() => setNoStudents(!picked.students.length)}
    >
      <Form.Item
        name="certId"
        label={t('fields.template')}
        rules={[{ required: true, message: t('form.templateRequired') }]}
      >
        <Select
          disabled={Boolean(draft)}
          showSearch
          optionFilterProp="label"
          loading={options.isPending}
          placeholder={t('form.templatePlaceholder')}
          options={(options.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
        />
      </Form.Item>
      <Form.Item
        name="awardFor"
        label={t('fields.awardFor')}
        extra={t('form.awardForHint')}
        rules={[{ required: true, whitespace: true, message: t('form.awardForRequired') }]}
      >
        <Input maxLength={CERT_LIMITS.awardFor} showCount />
      </Form.Item>
      <Form.Item
        name="issueDate"
        label={t('fields.issueDate')}
        rules={[{ required: true, message: t('form.dateRequired') }]}
      >
        <DatePicker allowClear={false} />
      </Form.Item>
      <fieldset className="cert-fieldset">
        <legend>{t('form.students')}</legend>
        <StudentPicker
          value={picked}
          onChange={(next) => {
            setPicked(next);
            if (next.students.length) setNoStudents(false);
          }}
        />
        {noStudents && <Alert role="alert" type="error" showIcon title={t('certNoStudents', { ns: 'errors' })} />}
      </fieldset>
      <FirstHolderPreview
        certId={draft?.certId ?? certId}
        holderName={picked.students[0]?.realName || picked.students[0]?.username}
        awardFor={awardFor}
      />
      <Button className="cert-submit" type="primary" htmlType="submit" loading={send.isPending}>
        {draft ? t('form.resubmit') : t('form.submit')}
      </Button>
    </Form>
  );
}
