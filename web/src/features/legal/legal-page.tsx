import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import './legal.css';

type LegalDocument = 'protocol' | 'privacy';

interface LegalSection {
  title: string;
  body: string;
}

function LegalPage({ doc }: { doc: LegalDocument }) {
  const { t } = useTranslation('legal');
  const titleId = useId();
  const sections = t(`${doc}.sections`, { returnObjects: true }) as Record<string, LegalSection>;
  return (
    <div className="page">
      <article className="legal" aria-labelledby={titleId}>
        <h1 id={titleId}>{t(`${doc}.title`)}</h1>
        <p className="legal__updated">{t('updated')}</p>
        <p className="legal__intro">{t(`${doc}.intro`)}</p>
        {Object.entries(sections).map(([id, section]) => (
          <section key={id} aria-labelledby={`${titleId}-${id}`}>
            <h2 id={`${titleId}-${id}`}>{section.title}</h2>
            <p>{section.body}</p>
          </section>
        ))}
      </article>
    </div>
  );
}

export function ProtocolPage() {
  return <LegalPage doc="protocol" />;
}

export function PrivacyPage() {
  return <LegalPage doc="privacy" />;
}
