/** The four product languages, as sent in the `language` request header and kept in the `language` cookie. */
export const LANGUAGES = ['en', 'zh_CHS', 'zh_CHT', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The server's language when a request names none (spec: default zh_CHS). */
export const DEFAULT_LANGUAGE: Language = 'zh_CHS';

/** Names of the languages in themselves, for the language switcher and `GET /gw/api/v1/langList`. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  zh_CHS: '简体中文',
  zh_CHT: '繁體中文',
  ja: '日本語',
};

/** The BCP 47 tag of each product language: `<html lang>`, `Intl` formats. */
export const HTML_LANG: Record<Language, string> = { en: 'en', zh_CHS: 'zh-CN', zh_CHT: 'zh-TW', ja: 'ja' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Maps a BCP 47 browser language (navigator.language) to a product language:
 * zh-TW / zh-HK / zh-MO / zh-Hant → zh_CHT, other zh* → zh_CHS, ja* → ja, anything else → en.
 */
export function languageFromBrowser(tag: string | undefined | null): Language {
  const t = (tag ?? '').toLowerCase();
  if (t.startsWith('zh')) {
    return /^zh-(tw|hk|mo)\b|^zh-hant\b/.test(t) ? 'zh_CHT' : 'zh_CHS';
  }
  if (t.startsWith('ja')) return 'ja';
  return 'en';
}
