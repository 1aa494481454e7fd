import {
  CERT_API,
  type CertElement,
  type TCertDesign,
  type TCertDetail,
  type TCertElementStyle,
  type TCertNumberRule,
  type TCreateCertRequest,
  type TUpdateCertRequest,
} from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Space, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { toast } from '../../app/feedback';
import { currentLanguage } from '../../app/i18n';
import { ADMIN_PATHS } from '../../app/paths';
import { useLeaveGuard } from '../../ui/use-leave-guard';
import { AdminShell } from '../admin/admin-shell';
import { DesignerCanvas } from './designer-canvas';
import { GeneralFields, ImageField, NumberRuleFields, PREFIX_PATTERN } from './designer-fields';
import { defaultDesign, defaultElements } from './designer-model';
import { DesignerPanel } from './designer-panel';
import { PreviewPane, useLivePreview, useNextNumber } from './designer-preview';
import { fieldIssues, saveTemplate, useTemplateDetail } from './template-api';
import './designer.css';

type FormValues = Pick<TCertDesign, 'layout' | 'language' | 'title' | 'content'> & {
  name: string;
  type: TCreateCertRequest['type'];
  remark: string;
  numberRule: TCertNumberRule;
};

interface Images {
  backgroundKey: string | null;
  backgroundUrl: string | null;
  sealKey: string | null;
  sealUrl: string | null;
}

/** The designer of a new template, or of the one in the address (`:certId`). */
export function CertificateDesignerPage() {
  const { certId } = useParams();
  const { t } = useTranslation('certDesign');
  const detail = useTemplateDetail(certId);
  const screen = certId ? 'certificateEdit' : 'certificateNew';
  if (certId && !detail.data) {
    return (
      <AdminShell screen={screen}>
        {detail.isError ? <Alert type="error" showIcon title={t('designer.loadFailed')} /> : <Spin />}
      </AdminShell>
    );
  }
  return (
    <AdminShell screen={screen}>
      <Designer key={certId ?? 'new'} cert={detail.data} />
    </AdminShell>
  );
}

function Designer({ cert }: { cert?: TCertDetail }) {
  const { t } = useTranslation('certDesign');
  const navigate = useNavigate();
  const client = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const start = cert?.design ?? {
    ...defaultDesign(currentLanguage()),
    title: t('defaults.title'),
    content: t('defaults.content'),
  };
  const [elements, setElements] = useState<TCertDesign['elements']>(start.elements);
  const [images, setImages] = useState<Images>({
    backgroundKey: start.backgroundKey,
    backgroundUrl: cert?.backgroundUrl ?? null,
    sealKey: start.sealKey,
    sealUrl: cert?.sealUrl ?? null,
  });
  const [selected, setSelected] = useState<CertElement>('name');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const { host: leaveHost, setDirty } = useLeaveGuard({
    title: t('leave.title'),
    body: t('leave.body'),
    leave: t('leave.leave'),
    stay: t('leave.stay'),
  });

  const initial: FormValues = {
    name: cert?.name ?? '',
    type: cert?.type ?? 'teaching',
    remark: cert?.remark ?? '',
    numberRule: cert?.numberRule ?? { prefix: '', digits: 4 },
    layout: start.layout,
    language: start.language,
    title: start.title,
    content: start.content,
  };
  const values = (Form.useWatch([], form) as FormValues | undefined) ?? initial;
  const layout = values.layout ?? initial.layout;
  const rule = values.numberRule ?? initial.numberRule;
  const ruleValid = PREFIX_PATTERN.test(rule.prefix ?? '') && rule.digits >= 3 && rule.digits <= 6;
  const next = useNextNumber(rule.prefix ?? '', rule.digits, ruleValid);

  const design: TCertDesign = {
    layout,
    backgroundKey: images.backgroundKey,
    sealKey: images.sealKey,
    title: values.title ?? '',
    content: values.content ?? '',
    language: values.language ?? initial.language,
    elements,
  };
  // Compared by value: only a change of the design or the rule asks for a new drawing.
  const preview = useLivePreview({ design, numberRule: ruleValid ? rule : undefined });

  const changeElement = (key: CertElement, element: TCertElementStyle) => {
    setElements((current) => ({ ...current, [key]: element }));
    setDirty(true);
  };
  const changeImages = (patch: Partial<Images>) => {
    setImages((current) => ({ ...current, ...patch }));
    setDirty(true);
  };

  const sampleDate = new Intl.DateTimeFormat(design.language.replace('_CHS', '-Hans').replace('_CHT', '-Hant'), {
    dateStyle: 'long',
  }).format(new Date());
  const sample: Record<CertElement, string> = {
    title: design.title || t('part.title'),
    name: t('sample.name'),
    content:
      design.content
        .replaceAll('{name}', t('sample.name'))
        .replaceAll('{awardFor}', t('sample.awardFor'))
        .replaceAll('{date}', sampleDate)
        .replaceAll('{number}', next ?? '')
        .replaceAll('{issuer}', t('sample.issuer')) || t('part.content'),
    number: next ?? t('part.number'),
    date: sampleDate,
    seal: '',
    qr: '',
  };

  const save = async (fields: FormValues) => {
    setRefusal(null);
    const body: TCreateCertRequest = {
      name: fields.name.trim(),
      type: fields.type,
      remark: fields.remark ?? '',
      numberRule: { prefix: fields.numberRule.prefix ?? '', digits: fields.numberRule.digits },
      design,
    };
    setBusy(true);
    try {
      await saveTemplate(cert ? ({ ...body, id: cert.id } satisfies TUpdateCertRequest) : body);
      setDirty(false);
      toast.success(t('designer.saved'));
      await client.invalidateQueries({ queryKey: [CERT_API.cert] });
      await client.invalidateQueries({ queryKey: [CERT_API.certDetail] });
      void navigate(ADMIN_PATHS.certificates);
    } catch (error) {
      const issues = fieldIssues(error);
      if (!issues) return;
      const known = new Set([
        'name',
        'type',
        'remark',
        'layout',
        'language',
        'title',
        'content',
        'numberRule.prefix',
        'numberRule.digits',
      ]);
      form.setFields(
        Object.entries(issues)
          .filter(([path]) => known.has(path))
          .map(([path, message]) => ({ name: path.split('.') as never, errors: [message] })),
      );
      const other = Object.entries(issues).filter(([path]) => !known.has(path));
      if (other.length) setRefusal(other.map(([path, message]) => `${path}: ${message}`).join('; '));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      onValuesChange={() => setDirty(true)}
      onFinish={(fields) => void save(fields)}
      className="designer"
    >
      <>{leaveHost}</>
      <div className="designer__columns">
        <div className="designer__form">
          <GeneralFields onLayout={(next) => setElements(defaultElements(next))} />
          <NumberRuleFields next={next} />
          <ImageField
            kind="background"
            url={images.backgroundUrl}
            onUploaded={(pic) => changeImages({ backgroundKey: pic.key, backgroundUrl: pic.url })}
            onRemove={() => changeImages({ backgroundKey: null, backgroundUrl: null })}
          />
          <ImageField
            kind="seal"
            url={images.sealUrl}
            onUploaded={(pic) => changeImages({ sealKey: pic.key, sealUrl: pic.url })}
            onRemove={() => changeImages({ sealKey: null, sealUrl: null })}
          />
        </div>
        <div className="designer__stage">
          <DesignerCanvas
            design={design}
            backgroundUrl={images.backgroundUrl}
            sealUrl={images.sealUrl}
            selected={selected}
            onSelect={setSelected}
            onChange={changeElement}
            sample={sample}
          />
          <DesignerPanel
            layout={layout}
            selected={selected}
            element={elements[selected]}
            onSelect={setSelected}
            onChange={(element) => changeElement(selected, element)}
          />
        </div>
        <PreviewPane {...preview} />
      </div>
      {refusal && <Alert type="error" showIcon title={refusal} role="alert" />}
      <Space className="designer__actions">
        <Button onClick={() => void navigate(ADMIN_PATHS.certificates)}>{t('designer.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('designer.save')}
        </Button>
      </Space>
    </Form>
  );
}
