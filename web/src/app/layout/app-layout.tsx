import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { usePlatformBrand } from '../platform';
import { useCurrentScreen } from '../screen';
import { SignDialogsHost } from '../sign-dialogs-host';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import './layout.css';

/** Public and learner pages: header with navigation, the page, footer (UX.md "Main layouts"). */
export function AppLayout() {
  const { t } = useTranslation();
  const screen = useCurrentScreen();
  const { pathname, hash } = useLocation();
  const navigation = useNavigation();
  const main = useRef<HTMLElement>(null);
  const shownPath = useRef(pathname);

  const { name } = usePlatformBrand();
  const title = screen ? t(screen, { ns: 'screens' }) : '';
  useEffect(() => {
    document.title = title ? `${title} · ${name}` : name;
  }, [title, name]);

  // After moving to another page, screen readers and keyboard users start at its content
  // (links to a section of a page move focus there themselves).
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    if (!hash) main.current?.focus({ preventScroll: true });
  }, [pathname, hash]);

  return (
    <div className="app-shell">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          main.current?.focus();
        }}
      >
        {t('app.skipToContent')}
      </a>
      <SiteHeader />
      <div className="app-progress" data-active={navigation.state !== 'idle'} aria-hidden="true" />
      <main id="main" ref={main} tabIndex={-1} className="app-main">
        <Outlet />
      </main>
      <SiteFooter />
      <SignDialogsHost />
      <ScrollRestoration />
    </div>
  );
}
