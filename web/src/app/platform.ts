import { API, type TSysSetting } from '@aiedu/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import defaultLogo from '../assets/logo-mark.svg';
import { api } from './api';

export const SETTING_QUERY_KEY = [API.sysSetting] as const;

/** Sign-in switches (one customer only, captcha on every sign-in) and the platform's name and logo. */
export const sysSettingQuery = queryOptions({
  queryKey: SETTING_QUERY_KEY,
  // Every page reads it for the name and logo; without it they show the product's own, so a failure stays quiet.
  queryFn: () => api.get<TSysSetting>(API.sysSetting, { quiet: true }),
  staleTime: Infinity,
});

export function useSysSetting() {
  return useQuery(sysSettingQuery);
}

/**
 * The name and logo the app shows: those a super administrator set, else the product's own (while the setting
 * loads, or when it cannot be read, too).
 */
export function usePlatformBrand(): { name: string; logoUrl: string; custom: boolean } {
  const { t } = useTranslation();
  const setting = useSysSetting().data;
  return {
    name: setting?.platformName ?? t('app.name'),
    logoUrl: setting?.logoUrl ?? defaultLogo,
    custom: Boolean(setting?.logoUrl),
  };
}
