import type { Language } from '@aiedu/contracts';
import type { Locale } from 'antd/es/locale';

/** antd's own texts (pagination, pickers, empty states…) per product language, loaded with the language. */
const LOADERS: Record<Language, () => Promise<{ default: Locale }>> = {
  en: () => import('antd/es/locale/en_US'),
  zh_CHS: () => import('antd/es/locale/zh_CN'),
  zh_CHT: () => import('antd/es/locale/zh_TW'),
  ja: () => import('antd/es/locale/ja_JP'),
};

const loaded: Partial<Record<Language, Locale>> = {};

export async function loadAntdLocale(language: Language): Promise<void> {
  loaded[language] ??= (await LOADERS[language]()).default;
}

/** The antd locale of a language loaded before (i18n loads it before switching). */
export function antdLocale(language: Language): Locale | undefined {
  return loaded[language];
}
