import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useInstitutionHome } from '../institution';
import { usePlatformBrand } from '../platform';
import { PATHS } from '../paths';
import { StoredLink } from '../../ui/stored-link';

export function SiteFooter() {
  const { t } = useTranslation();
  const sites = useInstitutionHome().data?.footerSites ?? [];
  const { name } = usePlatformBrand();
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <p className="site-footer__about">
          <strong>{name}</strong> · {t('footer.about')}
        </p>
        <nav aria-label={t('footer.legal')}>
          <ul className="site-footer__links">
            <li>
              <Link to={PATHS.protocol}>{t('footer.protocol')}</Link>
            </li>
            <li>
              <Link to={PATHS.privacy}>{t('footer.privacy')}</Link>
            </li>
          </ul>
        </nav>
        {sites.length > 0 && (
          <nav aria-label={t('footer.sites')}>
            <ul className="site-footer__links">
              {sites.map((site) => (
                <li key={site.url}>
                  <StoredLink href={site.url} target="_blank" rel="noreferrer">
                    {site.name}
                  </StoredLink>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <p className="site-footer__copyright">{t('footer.copyright', { year: new Date().getFullYear(), name })}</p>
      </div>
    </footer>
  );
}
