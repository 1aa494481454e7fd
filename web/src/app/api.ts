import { createApiClient } from './api-client';
import { APP_CONFIG } from './config';
import { showSystemNotice, toast } from './feedback';
import { currentLanguage, i18n } from './i18n';
import { clearSession, readSession, saveTokens, settleSession } from './session';
import { requirePasswordChange } from './sign-dialogs';

let navigateInApp: (path: string) => void = (path) => window.location.assign(path);

/** The router registers its navigate function at start-up, so API reactions move without a reload. */
export function bindNavigation(navigate: (path: string) => void): void {
  navigateInApp = navigate;
}

/** The app's API client, wired to the browser: use it in TanStack Query hooks. */
export const api = createApiClient({
  fetch: (url, init) => window.fetch(url, init),
  session: {
    // A session found half gone (its user id deleted from storage) ends before a request could carry its token.
    read: () => {
      settleSession();
      return readSession();
    },
    saveTokens,
    clear: clearSession,
  },
  language: currentLanguage,
  translate: (key, values) => i18n.t(key, values),
  toast,
  showSystemNotice,
  navigate: (path) => navigateInApp(path),
  redirect: (url) => window.location.assign(url),
  currentUrl: () => window.location.href,
  currentPath: () => window.location.pathname,
  setTimeout: (run, ms) => void window.setTimeout(run, ms),
  ssoClientId: APP_CONFIG.ssoClientId,
  passwordChangeRequired: requirePasswordChange,
});
