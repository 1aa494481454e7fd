import { Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminAccess } from '../admin/admin-access';
import { AdminShell } from '../admin/admin-shell';
import { AuditorSettings } from './auditor-settings';
import { useReviewQueue } from './cert-api';
import { IssuanceForm } from './issuance-form';
import { IssuanceList } from './issuance-list';
import { ReviewTab } from './review-tab';
import { UserCertList } from './user-cert-list';
import './user-cert.css';

/**
 * Issuing certificates (administrators and teachers): the issuances, a new one, the certificates issued with
 * revocation and re-issue, the review queue for auditors and, for administrators, the review settings.
 */
export function CertificateIssuancePage() {
  const { t } = useTranslation('certificate');
  const { can } = useAdminAccess();
  const queue = useReviewQueue();
  const [tab, setTab] = useState('issuances');
  const items = [
    { key: 'issuances', label: t('tabs.issuances'), children: <IssuanceList /> },
    { key: 'new', label: t('tabs.new'), children: <IssuanceForm onDone={() => setTab('issuances')} /> },
    { key: 'issued', label: t('tabs.issued'), children: <UserCertList /> },
    ...(queue.isAuditor
      ? [
          {
            key: 'review',
            label: t('tabs.review', { count: queue.data?.length ?? 0 }),
            children: <ReviewTab queue={queue} />,
          },
        ]
      : []),
    ...(can('certificateReview.manage')
      ? [{ key: 'settings', label: t('tabs.settings'), children: <AuditorSettings /> }]
      : []),
  ];
  return (
    <AdminShell screen="certificateIssuance">
      <Tabs activeKey={tab} onChange={setTab} items={items} destroyOnHidden />
    </AdminShell>
  );
}
