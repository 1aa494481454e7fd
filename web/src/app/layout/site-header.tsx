import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import logoUrl from '../../assets/logo-mark.svg';
import { ShellButton } from '../../ui/shell-button';
import { useAllowedModules } from '../institution';
import { navigationLinks } from '../routes';
import { useLoggedIn } from '../session';
import { openLoginDialog } from '../sign-dialogs';
import { PATHS } from '../paths';
import { LanguageSwitcher } from './language-switcher';

const LINKS = navigationLinks();

// Signed-in only: its code (avatar, dropdown menu) stays out of what a visitor downloads.
const UserMenu = lazy(() =>
  Promise.all([import('./user-menu'), import('../antd-scope')]).then(([m, scope]) => ({
    default: scope.withAntdScope(m.UserMenu),
  })),
);

export function SiteHeader() {
  const { t } = useTranslation();
  const loggedIn = useLoggedIn();
  // An institution may switch areas off for its teachers or students: their entries are not shown.
  const allowed = useAllowedModules();
  const links = LINKS.filter(({ area }) => area === 'home' || !allowed || allowed.has(area));

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link to={PATHS.home} className="site-header__brand" aria-label={t('header.homeLink')}>
          <img src={logoUrl} alt="" width={32} height={32} />
          <span aria-hidden="true">{t('app.name')}</span>
        </Link>
        <nav className="site-nav" aria-label={t('nav.label')}>
          <ul className="site-nav__list">
            {links.map(({ area, to }) => (
              <li key={area}>
                {to.includes('#') ? (
                  <Link to={to} className="site-nav__link">
                    {t(`nav.${area}`)}
                  </Link>
                ) : (
                  <NavLink to={to} end className="site-nav__link">
                    {t(`nav.${area}`)}
                  </NavLink>
                )}
              </li>
            ))}
          </ul>
        </nav>
        <div className="site-header__actions">
          <LanguageSwitcher />
          {loggedIn ? (
            <Suspense fallback={<span className="user-menu-placeholder" aria-hidden="true" />}>
              <UserMenu />
            </Suspense>
          ) : (
            <ShellButton kind="primary" onClick={() => openLoginDialog()}>
              {t('header.login')}
            </ShellButton>
          )}
        </div>
      </div>
    </header>
  );
}
