import { UploadOutlined } from '@ant-design/icons';
import {
  CERT_LAYOUTS,
  CERT_LIMITS,
  CERT_PLACEHOLDERS,
  CERT_TYPES,
  LANGUAGES,
  type CertLayout,
  type TCertPic,
} from '@aiedu/contracts';
import { Button, Form, Input, InputNumber, Radio, Select, Space } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkPic, uploadPic } from './template-api';

export const PREFIX_PATTERN = new RegExp(`^[A-Za-z]{0,${CERT_LIMITS.numberLetters}}$`);

/** The template's own fields: name, type, remark, layout, the date's language, title and content. */
export function GeneralFields({ onLayout }: { onLayout: (layout: CertLayout) => void }) {
  const { t } = useTranslation('certDesign');
  const form = Form.useFormInstance();
  const contentRef = useRef<TextAreaRef>(null);
  const insert = (placeholder: string) => {
    const area = contentRef.current?.resizableTextArea?.textArea;
    const value: string = form.getFieldValue('content') ?? '';
    const start = area?.selectionStart ?? value.length;
    const end = area?.selectionEnd ?? value.length;
    const next = (value.slice(0, start) + placeholder + value.slice(end)).slice(0, CERT_LIMITS.content);
    form.setFieldValue('content', next);
    void form.validateFields(['content']).catch(() => undefined);
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + placeholder.length, start + placeholder.length);
    });
  };
  const notBlank = { pattern: /^(?!\s+$)/s, message: t('error.blank') };
  return (
    <>
      <Form.Item
        name="name"
        label={t('field.name')}
        rules={[{ required: true, whitespace: true, message: t('error.name') }]}
      >
        <Input maxLength={CERT_LIMITS.name} showCount />
      </Form.Item>
      <Form.Item name="type" label={t('field.type')}>
        <Radio.Group options={CERT_TYPES.map((type) => ({ value: type, label: t(`type.${type}`) }))} />
      </Form.Item>
      <Form.Item name="remark" label={t('field.remark')} rules={[notBlank]}>
        <Input maxLength={CERT_LIMITS.remark} />
      </Form.Item>
      <Form.Item name="layout" label={t('field.layout')} extra={t('field.layoutHint')}>
        <Radio.Group
          onChange={(event) => onLayout(event.target.value as CertLayout)}
          options={CERT_LAYOUTS.map((layout) => ({ value: layout, label: t(`layout.${layout}`) }))}
        />
      </Form.Item>
      <Form.Item name="language" label={t('field.language')} extra={t('field.languageHint')}>
        <Select options={LANGUAGES.map((lang) => ({ value: lang, label: t(`language.${lang}`) }))} />
      </Form.Item>
      <Form.Item name="title" label={t('field.title')} rules={[notBlank]}>
        <Input maxLength={CERT_LIMITS.title} showCount />
      </Form.Item>
      <Form.Item name="content" label={t('field.content')} rules={[notBlank]} extra={t('field.contentHint')}>
        <Input.TextArea
          ref={contentRef}
          maxLength={CERT_LIMITS.content}
          showCount
          autoSize={{ minRows: 3, maxRows: 6 }}
        />
      </Form.Item>
      <Space wrap size={4} className="designer-chips" role="group" aria-label={t('field.placeholders')}>
        {CERT_PLACEHOLDERS.map((placeholder) => (
          <Button key={placeholder} size="small" onClick={() => insert(placeholder)}>
            {t('placeholder.insert', {
              name: t(`placeholder.${placeholder.slice(1, -1) as 'name' | 'awardFor' | 'date' | 'number' | 'issuer'}`),
            })}
          </Button>
        ))}
      </Space>
    </>
  );
}

/** The number rule: 0–10 letters, the issue date and a sequence of 3–6 digits, with the next number to come. */
export function NumberRuleFields({ next }: { next: string | null }) {
  const { t } = useTranslation('certDesign');
  return (
    <fieldset className="designer-fieldset">
      <legend>{t('field.numberRule')}</legend>
      <Space wrap align="start">
        <Form.Item
          name={['numberRule', 'prefix']}
          label={t('field.prefix')}
          rules={[{ pattern: PREFIX_PATTERN, message: t('error.prefix') }]}
        >
          <Input style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name={['numberRule', 'digits']} label={t('field.digits')}>
          <InputNumber min={CERT_LIMITS.numberDigitsMin} max={CERT_LIMITS.numberDigitsMax} precision={0} />
        </Form.Item>
      </Space>
      <p className="admin-muted" aria-live="polite">
        {t('field.ruleHint')} {next && t('field.nextNumber', { number: next })}
      </p>
    </fieldset>
  );
}

/** A background or seal image: JPG or PNG under 5 MB, checked before it is sent. */
export function ImageField(props: {
  kind: 'background' | 'seal';
  url: string | null;
  onUploaded: (pic: TCertPic) => void;
  onRemove: () => void;
}) {
  const { kind, url, onUploaded, onRemove } = props;
  const { t } = useTranslation('certDesign');
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const choose = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    const refusal = checkPic(file);
    setError(refusal && t(`error.pic_${refusal}`));
    if (refusal) return;
    setBusy(true);
    try {
      onUploaded(await uploadPic(file, url));
    } catch {
      // The API client has shown the refusal.
    } finally {
      setBusy(false);
    }
  };
  const id = `designer-${kind}`;
  return (
    <div className="designer-image">
      <span id={`${id}-label`} className="designer-image__label">
        {t(`field.${kind}`)}
      </span>
      <Space wrap>
        <Button
          icon={<UploadOutlined />}
          loading={busy}
          aria-describedby={`${id}-hint`}
          onClick={() => input.current?.click()}
        >
          {url ? t('image.replace', { name: t(`field.${kind}`) }) : t('image.upload', { name: t(`field.${kind}`) })}
        </Button>
        {url && (
          <Button type="link" danger onClick={onRemove}>
            {t('image.remove', { name: t(`field.${kind}`) })}
          </Button>
        )}
      </Space>
      <input
        ref={input}
        type="file"
        hidden
        style={{ display: 'none' }}
        accept="image/jpeg,image/png"
        aria-labelledby={`${id}-label`}
        data-testid={`${kind}-file`}
        onChange={(event) => void choose(event.target.files?.[0])}
      />
      <div id={`${id}-hint`} className="admin-muted">
        {t(kind === 'background' ? 'image.backgroundHint' : 'image.sealHint')}
      </div>
      {error && (
        <div role="alert" className="designer-error">
          {error}
        </div>
      )}
    </div>
  );
}
