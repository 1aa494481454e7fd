import { LockOutlined, LoginOutlined } from '@ant-design/icons';
import { Menu } from 'antd';
import { useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ADMIN_PATHS } from '../../app/paths';
import { useLoggedIn } from '../../app/session';
import { SignInCard } from '../../app/sign-in-required';
import { StatusCard } from '../../ui/status-card';
import { useAdminAccess } from './admin-access';
import { screenPermission, visibleMenu, type AdminScreen } from './admin-menu';
import './admin.css';

/** Where the menu stops sitting beside the screen and goes above it (admin.css has the same width). */
const NARROW = '(max-width: 900px)';

function useNarrow(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia?.(NARROW);
      query?.addEventListener('change', onChange);
      return () => query?.removeEventListener('change', onChange);
    },
    () => window.matchMedia?.(NARROW).matches ?? false,
  );
}

/**
 * The left menu of the administration, grouped by object, showing the screens the user may use. On a narrow screen
 * it sits above the screen, folded, so that the screen itself comes first; it folds again after each choice.
 */
function AdminMenu() {
  const { t } = useTranslation('admin');
  const { pathname } = useLocation();
  const narrow = useNarrow();
  const { can } = useAdminAccess();
  const items = visibleMenu(can).map((group) => ({
    type: 'group' as const,
    key: group.group,
    label: t(`menu.${group.group}`),
    children: group.items.map((item) => ({
      key: ADMIN_PATHS[item.screen],
      label: <Link to={ADMIN_PATHS[item.screen]}>{t(item.screen, { ns: 'screens' })}</Link>,
    })),
  }));
  const menu = <Menu mode="inline" selectedKeys={[pathname]} items={items} />;
  return (
    <nav className="admin-shell__menu" aria-label={t('menu.label')}>
      {narrow ? (
        <details key={pathname} className="admin-shell__fold">
          <summary>{t('menu.label')}</summary>
          {menu}
        </details>
      ) : (
        menu
      )}
    </nav>
  );
}

/** Every administration screen's frame: the menu on the left, the screen's title, actions and content on the right. */
export function AdminShell({
  screen,
  actions,
  children,
}: {
  screen: AdminScreen;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation('admin');
  return (
    <div className="admin-shell">
      <AdminMenu />
      <section className="admin-shell__content" aria-labelledby="admin-title">
        <header className="admin-shell__header">
          <h1 id="admin-title">{t(screen, { ns: 'screens' })}</h1>
          {actions && <div className="admin-shell__actions">{actions}</div>}
        </header>
        {children}
      </section>
    </div>
  );
}

/**
 * A screen shown only to roles holding its permission (the server refuses the same calls): others get the spec's
 * refusal, and visitors who are not signed in are asked to log in. The screen's own code (and its requests) runs
 * only when allowed.
 */
export function guarded(screen: AdminScreen, Screen: ComponentType) {
  return function GuardedScreen() {
    const { t } = useTranslation('admin');
    const loggedIn = useLoggedIn();
    const { can } = useAdminAccess();
    if (!loggedIn) {
      return (
        <SignInCard
          icon={<LoginOutlined />}
          title={t(screen, { ns: 'screens' })}
          lead={t('shell.signInFirst')}
          action={t('shell.signIn')}
        />
      );
    }
    if (!can(screenPermission(screen))) {
      return (
        <div className="page">
          <StatusCard icon={<LockOutlined />} title={t('noPermissionPage', { ns: 'errors' })} />
        </div>
      );
    }
    return <Screen />;
  };
}
