import { ERRORS, ERROR_MESSAGES } from '@aiedu/contracts';

export const CATALOGUE_START = '<!-- error-catalogue:start -->';
export const CATALOGUE_END = '<!-- error-catalogue:end -->';

/** The error catalogue as a Markdown table, written into docs/api.md between the two markers. */
export function errorCatalogueMarkdown(): string {
  const rows = Object.entries(ERRORS).map(
    ([name, e]) =>
      `| \`${e.code}\` | ${e.status} | \`${name}\` | ${ERROR_MESSAGES.en[e.key] || '(empty)'} | ${ERROR_MESSAGES.zh_CHS[e.key] || '(空)'} |`,
  );
  return [
    CATALOGUE_START,
    '| errorCode | HTTP | name | en | zh_CHS |',
    '|---|---|---|---|---|',
    ...rows,
    CATALOGUE_END,
  ].join('\n');
}
