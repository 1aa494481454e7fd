import {
  CodeOutlined,
  DatabaseOutlined,
  ReadOutlined,
  RobotOutlined,
  TeamOutlined,
  TrophyOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAllowedModules } from '../../app/institution';

// Each area's id is also its anchor: the header links to `/home#<area>` until the area's page exists.
const AREAS = [
  { id: 'courses', icon: <ReadOutlined /> },
  { id: 'projects', icon: <CodeOutlined /> },
  { id: 'datasets', icon: <DatabaseOutlined /> },
  { id: 'events', icon: <TrophyOutlined /> },
  { id: 'ai', icon: <RobotOutlined /> },
  { id: 'groups', icon: <TeamOutlined /> },
] as const;

const SCHOOL_FEATURES = ['admin', 'certificates', 'open'] as const;

export function HomeAreas() {
  const { t } = useTranslation('home');
  // Areas the signed-in user's institution switched off for their side are not introduced either.
  const allowed = useAllowedModules();
  const areas = AREAS.filter((area) => !allowed || allowed.has(area.id));
  return (
    <section className="home-section" aria-labelledby="home-areas-title">
      <h2 id="home-areas-title" className="home-section__title">
        {t('areas.title')}
      </h2>
      <p className="home-section__lead">{t('areas.lead')}</p>
      <ul className="home-areas">
        {areas.map((area) => (
          <li key={area.id} id={area.id} tabIndex={-1} className="home-area">
            <span className="home-area__icon" aria-hidden="true">
              {area.icon}
            </span>
            <h3 className="home-area__title">{t(`areas.${area.id}.title`)}</h3>
            <p className="home-area__body">{t(`areas.${area.id}.body`)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function HomeSchools() {
  const { t } = useTranslation('home');
  return (
    <section className="home-section home-schools" aria-labelledby="home-schools-title">
      <h2 id="home-schools-title" className="home-section__title">
        {t('schools.title')}
      </h2>
      <p className="home-section__lead">{t('schools.body')}</p>
      <ul className="home-schools__list">
        {SCHOOL_FEATURES.map((feature) => (
          <li key={feature} className="home-schools__item">
            {t(`schools.${feature}`)}
          </li>
        ))}
      </ul>
    </section>
  );
}
