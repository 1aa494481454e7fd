import type { TInstitutionHome } from '@aiedu/contracts';
import { useTranslation } from 'react-i18next';
import { StoredLink } from '../../ui/stored-link';
import { RotatingSlides } from './rotating-slides';

/** The signed-in user's institution on /home: its rotating banners with their links and its featured project types. */
export function InstitutionSection({ home }: { home: TInstitutionHome }) {
  const { t } = useTranslation('home');
  if (home.banners.length === 0 && home.projectTypes.length === 0) return null;
  return (
    <section className="home-institution" aria-labelledby="home-institution-title">
      <h2 id="home-institution-title">{home.name}</h2>
      {home.banners.length > 0 && (
        <RotatingSlides
          className="home-institution__banners"
          label={t('institution.banners', { name: home.name })}
          slides={home.banners.map((banner, index) => ({
            id: `${index}-${banner.imageUrl}`,
            content: (
              <StoredLink href={banner.link}>
                <img src={banner.imageUrl} alt={t('institution.banner', { n: index + 1, name: home.name })} />
              </StoredLink>
            ),
          }))}
        />
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
