import { LockOutlined } from '@ant-design/icons';
import type { MODULES } from '@aiedu/contracts';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { ShellLinkButton } from '../ui/shell-button';
import { StatusCard } from '../ui/status-card';
import { useAllowedModules } from './institution';
import { PATHS } from './paths';

export type Module = (typeof MODULES)[number];

/**
 * A page of a module its institution may switch off for a side (teachers or students): with the module off, the
 * page answers with the refusal the API gives its calls (`1008`, "No permission to visit"), as the header already
 * hides its entry. Until the modules are known (and for visitors and the public space) the page shows.
 */
export function moduleGated(module: Module, Page: ComponentType): ComponentType {
  return function ModuleGatedPage() {
    const { t } = useTranslation();
    const allowed = useAllowedModules();
    if (!allowed || allowed.has(module)) return <Page />;
    return (
      <div className="page">
        <StatusCard
          icon={<LockOutlined />}
          title={t('noPermissionVisit', { ns: 'errors' })}
          body={t('moduleOff')}
          action={
            <ShellLinkButton kind="primary" size="large" to={PATHS.home}>
              {t('notFound.home')}
            </ShellLinkButton>
          }
        />
      </div>
    );
  };
}
