import type { TInstitutionHome } from '@aiedu/contracts';
import { useTranslation } from 'react-i18next';
import { StoredLink } from '../../ui/stored-link';

/** The signed-in user's institution on /home: its banners with their links and the project types it features. */
export function InstitutionSection({ home }: { home: TInstitutionHome }) {
  const { t } = useTranslation('home');
  if (home.banners.length === 0 && home.projectTypes.length === 0) return null;
  return (
    <section className="home-institution" aria-labelledby="home-institution-title">
      <h2 id="home-institution-title">{home.name}</h2>
      {home.banners.length > 0 && (
        <ul className="home-institution__banners">
          {home.banners.map((banner, index) => {
            const image = (
              <img src={banner.imageUrl} alt={t('institution.banner', { n: index + 1, name: home.name })} />
            );
            return (
              <li key={banner.imageUrl}>
                <StoredLink href={banner.link}>{image}</StoredLink>
              </li>
            );
          })}
        </ul>
      )}
      {home.projectTypes.length > 0 && (
        <>
          <h3>{t('institution.projectTypes')}</h3>
          <ul className="home-institution__types">
            {home.projectTypes.map((type) => (
              <li key={type}>{type}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
