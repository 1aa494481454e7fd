import dayjs from 'dayjs';
import 'dayjs/locale/ja';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import type { Language } from '@aiedu/contracts';
import { currentLanguage, HTML_LANG, i18n } from '../app/i18n';

/**
 * Dates for pages that show or pick them: import `dayjs` from here, not from 'dayjs', so month and
 * weekday names (and antd's date pickers) follow the product language. Loaded with the first such page.
 */
const DAYJS_LOCALES: Record<Language, string> = { en: 'en', zh_CHS: 'zh-cn', zh_CHT: 'zh-tw', ja: 'ja' };

function followLanguage(): void {
  dayjs.locale(DAYJS_LOCALES[currentLanguage()]);
}

followLanguage();
i18n.on('languageChanged', followLanguage);

export { dayjs };

/** A moment as people of the current language write it (date and time). */
export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat(HTML_LANG[currentLanguage()], { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );
}
