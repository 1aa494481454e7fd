import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExclamationCircleFilled,
  QuestionCircleFilled,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import {
  CERT_LIMITS,
  ERRORS,
  ZCertVerifyQuery,
  type TCertVerification,
  type TCredentialVerification,
} from '@aiedu/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Input, Typography } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../app/api-client';
import { formatDateTime } from '../../ui/dates';
import { STATUS_COLORS } from '../../ui/status-colors';
import { certCalls } from './cert-api';
import './user-cert.css';

type Outcome =
  { kind: 'found'; cert: TCertVerification } | { kind: 'notFound' } | { kind: 'tooFrequent' } | { kind: 'failed' };

const RATE_CODES: readonly string[] = [ERRORS.TOO_FREQUENT.code];

/** What a failed search tells the visitor. */
function outcomeOf(error: unknown): Outcome {
  if (error instanceof ApiError) {
    if (error.code === ERRORS.CERTIFICATE_NOT_FOUND.code) return { kind: 'notFound' };
    if (error.status === 429 || (error.code && RATE_CODES.includes(error.code))) return { kind: 'tooFrequent' };
  }
  return { kind: 'failed' };
}

/** A verdict card: a coloured icon and title, then what it is about. */
function Verdict({
  tone,
  icon,
  title,
  children,
}: {
  tone: keyof typeof STATUS_COLORS;
  icon: ReactNode;
  title: string;
  children?: ReactNode;
}) {
  return (
    <section className={`cert-verdict cert-verdict--${tone}`} aria-live="polite" aria-label={title}>
      <h3 className="cert-verdict__title" style={{ color: STATUS_COLORS[tone] }}>
        <span aria-hidden="true">{icon}</span> {title}
      </h3>
      {children}
    </section>
  );
}

/** The facts anyone may learn of a certificate: holder, template, what for, issuer, date, and a revocation. */
export function CertFacts({ cert }: { cert: TCertVerification }) {
  const { t } = useTranslation('certificate');
  const items = [
    { key: 'number', label: t('fields.number'), children: cert.number },
    { key: 'holder', label: t('fields.holder'), children: cert.holderName },
    { key: 'cert', label: t('fields.template'), children: cert.certName },
    { key: 'awardFor', label: t('fields.awardFor'), children: cert.awardFor },
    { key: 'issuer', label: t('fields.issuer'), children: cert.issuerName },
    { key: 'issuedAt', label: t('fields.issuedAt'), children: formatDateTime(cert.issuedAt) },
    ...(cert.state === 'revoked'
      ? [
          {
            key: 'revokedAt',
            label: t('fields.revokedAt'),
            children: cert.revokedAt ? formatDateTime(cert.revokedAt) : '',
          },
          { key: 'reason', label: t('fields.revokeReason'), children: cert.revokeReason ?? '' },
        ]
      : []),
  ];
  return <Descriptions column={1} size="small" bordered items={items} />;
}

function SearchOutcome({ outcome }: { outcome: Outcome }) {
  const { t } = useTranslation('certificate');
  if (outcome.kind === 'found') {
    const valid = outcome.cert.state === 'valid';
    return (
      <Verdict
        tone={valid ? 'success' : 'error'}
        icon={valid ? <CheckCircleFilled /> : <CloseCircleFilled />}
        title={valid ? t('search.valid') : t('search.revoked')}
      >
        <p>{valid ? t('search.validLead') : t('search.revokedLead')}</p>
        <CertFacts cert={outcome.cert} />
      </Verdict>
    );
  }
  if (outcome.kind === 'notFound')
    return (
      <Verdict tone="neutral" icon={<QuestionCircleFilled />} title={t('certificateNotFound', { ns: 'errors' })}>
        <p>{t('search.notFoundLead')}</p>
      </Verdict>
    );
  return (
    <Alert
      type="warning"
      showIcon
      title={outcome.kind === 'tooFrequent' ? t('tooFrequent', { ns: 'errors' }) : t('search.failed')}
    />
  );
}

/** Search by number: an empty number is refused before asking; `?number=` (the QR code's link) searches at once. */
function NumberSearch() {
  const { t } = useTranslation('certificate');
  const [params, setParams] = useSearchParams();
  const initial = params.get('number') ?? '';
  const [form] = Form.useForm<{ number: string }>();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const search = useMutation({
    mutationFn: certCalls.verify,
    onSuccess: (cert) => setOutcome({ kind: 'found', cert }),
    onError: (error) => setOutcome(outcomeOf(error)),
  });
  const searched = useRef(false);
  useEffect(() => {
    if (searched.current || !initial.trim()) return;
    searched.current = true;
    search.mutate(initial.trim());
  }, [initial, search]);

  const submit = ({ number }: { number: string }) => {
    const trimmed = number.trim();
    setParams({ number: trimmed }, { replace: true });
    search.mutate(trimmed);
  };
  return (
    <section className="cert-search__part" aria-labelledby="cert-search-number">
      <h2 id="cert-search-number">{t('search.byNumber')}</h2>
      <p className="cert-muted">{t('search.byNumberLead')}</p>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ number: initial }}
        onFinish={submit}
        className="cert-search__form"
      >
        <Form.Item
          name="number"
          label={t('fields.number')}
          rules={[
            {
              validator: (_, value?: string) =>
                ZCertVerifyQuery.safeParse({ number: value ?? '' }).success
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('certNumberRequired', { ns: 'errors' }))),
            },
          ]}
        >
          <Input size="large" maxLength={40} autoComplete="off" placeholder={t('search.placeholder')} />
        </Form.Item>
        <Button type="primary" size="large" htmlType="submit" loading={search.isPending}>
          {t('search.submit')}
        </Button>
      </Form>
      {outcome && !search.isPending && <SearchOutcome outcome={outcome} />}
    </section>
  );
}

/** Check a credential file: an Open Badges 3.0 JWT, uploaded or pasted, checked by the platform. */
function CredentialCheck() {
  const { t } = useTranslation('certificate');
  const [text, setText] = useState('');
  const [tooLarge, setTooLarge] = useState(false);
  const check = useMutation({ mutationFn: certCalls.verifyCredential });
  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setTooLarge(file.size > CERT_LIMITS.credentialBytes);
    if (file.size > CERT_LIMITS.credentialBytes) return;
    setText((await file.text()).trim());
    check.reset();
  };
  const result: TCredentialVerification | undefined = check.data;
  return (
    <section className="cert-search__part" aria-labelledby="cert-search-credential">
      <h2 id="cert-search-credential">{t('search.credential')}</h2>
      <p className="cert-muted">{t('search.credentialLead')}</p>
      <label className="cert-file">
        <span>{t('search.credentialFile')}</span>
        <input
          type="file"
          accept=".jwt,.txt,application/jwt,text/plain"
          onChange={(e) => void readFile(e.target.files?.[0])}
        />
      </label>
      {tooLarge && <Alert type="error" showIcon title={t('search.credentialTooLarge')} />}
      <label htmlFor="cert-credential-text" className="cert-label">
        {t('search.credentialPaste')}
      </label>
      <Input.TextArea
        id="cert-credential-text"
        rows={4}
        value={text}
        maxLength={CERT_LIMITS.credentialBytes}
        onChange={(e) => {
          setText(e.target.value);
          check.reset();
        }}
      />
      <Button
        className="cert-search__check"
        type="primary"
        disabled={!text.trim()}
        loading={check.isPending}
        onClick={() => check.mutate(text.trim())}
      >
        {t('search.check')}
      </Button>
      {result &&
        (result.genuine && result.certificate ? (
          <Verdict
            tone={result.certificate.state === 'valid' ? 'success' : 'error'}
            icon={result.certificate.state === 'valid' ? <CheckCircleFilled /> : <CloseCircleFilled />}
            title={result.certificate.state === 'valid' ? t('search.genuineValid') : t('search.genuineRevoked')}
          >
            <CertFacts cert={result.certificate} />
          </Verdict>
        ) : (
          <Verdict tone="error" icon={<ExclamationCircleFilled />} title={t('search.notGenuine')}>
            <p>{t('search.notGenuineLead')}</p>
          </Verdict>
        ))}
    </section>
  );
}

/** The public verification page: anyone, signed in or not, checks a certificate by its number or credential file. */
export function CertificateSearchPage() {
  const { t } = useTranslation('certificate');
  return (
    <div className="page cert-search">
      <header className="cert-search__head">
        <SafetyCertificateOutlined className="cert-search__icon" aria-hidden="true" />
        <div>
          <h1>{t('certificateSearch', { ns: 'screens' })}</h1>
          <Typography.Paragraph className="cert-muted">{t('search.lead')}</Typography.Paragraph>
        </div>
      </header>
      <NumberSearch />
      <CredentialCheck />
    </div>
  );
}
