import 'i18next';
import type { Resources } from '../locales/namespaces';

// Typed keys: `t('home:banner.title')` fails to compile when the key does not exist in English.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: Resources;
  }
}
