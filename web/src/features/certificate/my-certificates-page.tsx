import { CopyOutlined, DownloadOutlined, FileImageOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import type { TUserCert } from '@aiedu/contracts';
import { Button, Card, Empty, Skeleton, Space, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from '../../app/feedback';
import { SignInRequired } from '../../app/sign-in-required';
import { formatDateTime } from '../../ui/dates';
import { STATUS_COLORS } from '../../ui/status-colors';
import { downloadBadge, downloadCertPdf, downloadCertPng, useCertPng, useMyCerts, verifyLink } from './cert-api';
import './user-cert.css';

/** A certificate's state as a solid tag. */
export function UserCertState({ cert }: { cert: Pick<TUserCert, 'state'> }) {
  const { t } = useTranslation('certificate');
  return (
    <Tag color={cert.state === 'valid' ? STATUS_COLORS.success : STATUS_COLORS.error}>
      {t(`userCertStates.${cert.state}`)}
    </Tag>
  );
}

/** The card's preview is drawn this wide; the picture has twice the pixels, for sharp screens. */
const PREVIEW_WIDTH = 260;

/** A certificate's picture, as the server draws it from the PDF. */
function CertPicture({ cert, label }: { cert: TUserCert; label: string }) {
  const png = useCertPng(cert.id, PREVIEW_WIDTH * 2);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const blob = png.data;
    if (!blob) return;
    let made: string | null = null;
    let live = true;
    // An address of its own for the picture, let go when the card goes or the picture changes.
    void Promise.resolve().then(() => live && setUrl((made = URL.createObjectURL(blob))));
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [png.data]);
  if (!url) return <Skeleton.Image active={png.isPending} />;
  return <img className="cert-card__picture" src={url} alt={label} width={PREVIEW_WIDTH} />;
}

function MyCertCard({ cert }: { cert: TUserCert }) {
  const { t } = useTranslation('certificate');
  const title = `${cert.certName} · ${cert.awardFor}`;
  const copy = async () => {
    if (!cert.number) return;
    await navigator.clipboard?.writeText(verifyLink(cert.number));
    toast.success(t('mine.copied'));
  };
  return (
    <Card
      title={<span>{cert.certName}</span>}
      extra={<UserCertState cert={cert} />}
      cover={
        <div className="cert-card__preview">
          <CertPicture cert={cert} label={t('mine.previewOf', { name: title })} />
        </div>
      }
    >
      <dl className="cert-card__facts">
        <dt>{t('fields.number')}</dt>
        <dd>{cert.number ?? '—'}</dd>
        <dt>{t('fields.awardFor')}</dt>
        <dd>{cert.awardFor}</dd>
        <dt>{t('fields.issuer')}</dt>
        <dd>{cert.issuerName}</dd>
        <dt>{t('fields.issuedAt')}</dt>
        <dd>{cert.issuedAt ? formatDateTime(cert.issuedAt) : '—'}</dd>
        {cert.state === 'revoked' && (
          <>
            <dt>{t('fields.revokedAt')}</dt>
            <dd>{cert.revokedAt ? formatDateTime(cert.revokedAt) : '—'}</dd>
            <dt>{t('fields.revokeReason')}</dt>
            <dd>{cert.revokeReason}</dd>
          </>
        )}
      </dl>
      <Space wrap size={[4, 4]}>
        <Button icon={<DownloadOutlined />} onClick={() => void downloadCertPdf(cert)}>
          {t('mine.downloadPdf')}
        </Button>
        <Button icon={<FileImageOutlined />} onClick={() => void downloadCertPng(cert)}>
          {t('mine.downloadPng')}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={() => void downloadBadge(cert)}>
          {t('mine.downloadBadge')}
        </Button>
        {cert.number && (
          <>
            <Link to={`/pjedu/certificate-search?number=${encodeURIComponent(cert.number)}`}>
              <SafetyCertificateOutlined aria-hidden="true" /> {t('mine.verify')}
            </Link>
            <Button type="link" icon={<CopyOutlined />} onClick={() => void copy()}>
              {t('mine.copyLink')}
            </Button>
          </>
        )}
      </Space>
    </Card>
  );
}

function MyCertList() {
  const { t } = useTranslation('certificate');
  const mine = useMyCerts();
  if (mine.isPending) return <Skeleton active title={false} />;
  const certs = mine.data ?? [];
  if (!certs.length) return <Empty description={t('mine.empty')} />;
  return (
    <ul className="cert-cards">
      {certs.map((cert) => (
        <li key={cert.id}>
          <MyCertCard cert={cert} />
        </li>
      ))}
    </ul>
  );
}

/** My certificates: every certificate the signed-in user holds, with a preview, downloads and its public check. */
export function MyCertificatesPage() {
  const { t } = useTranslation('certificate');
  const title = t('myCertificates', { ns: 'screens' });
  return (
    <SignInRequired title={title}>
      <div className="page">
        <h1>{title}</h1>
        <p className="cert-muted">{t('mine.lead')}</p>
        <MyCertList />
      </div>
    </SignInRequired>
  );
}
