import {
  HTML_LANG,
  isLanguage,
  LANGUAGES,
  languageFromBrowser,
  SESSION_COOKIE_DAYS,
  type Language,
} from '@aiedu/contracts';
import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { STARTUP_NAMESPACES, type Namespace } from '../locales/namespaces';
import { loadAntdLocale } from './antd-locale';
import { readCookie, writeCookie } from './cookies';

export const LANGUAGE_COOKIE = 'language';

export { HTML_LANG };

/** The `language` cookie when it holds a product language, else the browser's language. */
export function detectLanguage(): Language {
  const saved = readCookie(LANGUAGE_COOKIE);
  return isLanguage(saved) ? saved : languageFromBrowser(navigator.language);
}

/**
 * Every namespace of every language is its own chunk: a visitor downloads the texts of their
 * language for the pages they open, nothing else. Switching language loads the namespaces in use.
 */
const JSON_TEXTS = import.meta.glob<{ default: ResourceKey }>('../locales/*/*.json');

async function readTexts(language: string, namespace: string): Promise<ResourceKey> {
  if (namespace === 'errors') {
    const { ERROR_MESSAGES } = await import('../locales/error-messages');
    if (isLanguage(language)) return ERROR_MESSAGES[language];
  }
  const load = JSON_TEXTS[`../locales/${language}/${namespace}.json`];
  if (!load) throw new Error(`No texts for ${language}/${namespace}`);
  return (await load()).default;
}

const textsBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read: (language, namespace, callback) => {
    readTexts(language, namespace).then(
      (texts) => callback(null, texts),
      (error: Error) => callback(error, false),
    );
  },
};

export const i18n = i18next.createInstance();

/**
 * Settles once the start has run. The router starts loading the first page (and its namespaces) before the start
 * finishes; i18next answers `loadNamespaces` at once, loading nothing, until it is initialised, so a page would
 * render its keys for a moment.
 */
let markStarted!: () => void;
const started = new Promise<void>((resolve) => (markStarted = resolve));

i18n.on('languageChanged', (language) => {
  if (isLanguage(language)) document.documentElement.lang = HTML_LANG[language];
});

/** Starts i18n in the detected (or given) language; the app renders once this resolves. */
export async function initI18n(language: Language = detectLanguage()): Promise<void> {
  if (i18n.isInitialized) return changeLanguage(language, { remember: false });
  try {
    await start(language);
  } finally {
    markStarted();
  }
}

/** The component library's texts are not among the start's: they load with the library (antd-scope.tsx). */
async function start(language: Language) {
  await i18n
    .use(textsBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: false,
      supportedLngs: [...LANGUAGES],
      load: 'currentOnly',
      ns: [...STARTUP_NAMESPACES],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      // Pages load their namespaces with their code (see routes.tsx), so nothing suspends.
      react: { useSuspense: false },
    });
}

/**
 * Loads namespaces a page needs, in the current language (and in any language switched to later), once i18n has
 * started. Asked before the start has finished (the first page), their files start downloading at once, in the
 * language the start detects, beside the startup namespaces rather than after them.
 */
export async function loadNamespaces(namespaces: readonly Namespace[]): Promise<void> {
  if (!i18n.isInitialized) {
    const language = detectLanguage();
    for (const namespace of namespaces) void readTexts(language, namespace).catch(() => undefined);
  }
  await started;
  if (namespaces.length > 0) await i18n.loadNamespaces([...namespaces]);
}

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : 'en';
}

/** Switches the language everywhere without a reload and remembers it in the `language` cookie. */
export async function changeLanguage(language: Language, { remember = true } = {}): Promise<void> {
  if (remember) writeCookie(LANGUAGE_COOKIE, language, SESSION_COOKIE_DAYS);
  await loadAntdLocale(language);
  await i18n.changeLanguage(language);
}

/** The current language, re-rendering the caller when it changes. */
export function useLanguage(): Language {
  const { i18n: instance } = useTranslation();
  return isLanguage(instance.language) ? instance.language : 'en';
}
