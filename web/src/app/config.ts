/** Deployment settings, read at build time from `VITE_*` variables (see web/README.md). */
export const APP_CONFIG = {
  ssoClientId: import.meta.env.VITE_SSO_CLIENT_ID || 'aiedu-web',
  staffContactUrl: import.meta.env.VITE_STAFF_CONTACT_URL || `${window.location.origin}/pjedu/help`,
} as const;
