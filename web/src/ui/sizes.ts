import { currentLanguage, HTML_LANG } from '../app/i18n';

const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;

/**
 * A size in the page's language: kilobytes under a megabyte (at least 1), megabytes under a gigabyte, else
 * gigabytes, to one decimal above kilobytes.
 */
export function formatBytes(bytes: number): string {
  const [unit, size] =
    bytes < MB
      ? (['kilobyte', Math.max(1, bytes / KB)] as const)
      : bytes < GB
        ? (['megabyte', bytes / MB] as const)
        : (['gigabyte', bytes / GB] as const);
  return new Intl.NumberFormat(HTML_LANG[currentLanguage()], {
    style: 'unit',
    unit,
    maximumFractionDigits: unit === 'kilobyte' ? 0 : 1,
  }).format(size);
}
