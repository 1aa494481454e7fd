import type { Language } from '@aiedu/contracts';

/** The texts drawn on a certificate: the date in the design's language, placeholders, labels and wrapping. */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** A yyyy-MM-dd date as written in a language: `November 28, 2026` or `2026年11月28日` (Chinese and Japanese). */
export function formatCertDate(isoDate: string, language: Language): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) return isoDate;
  const [, year, month, day] = match as unknown as [string, string, string, string];
  if (language === 'en') return `${MONTHS[Number(month) - 1]} ${Number(day)}, ${year}`;
  return `${year}年${Number(month)}月${Number(day)}日`;
}

/** Fills the content's placeholders; an unknown `{word}` stays as typed. */
export function fillPlaceholders(content: string, values: Record<string, string>): string {
  return content.replace(/\{(name|awardFor|date|number|issuer)\}/g, (_, key: string) => values[key] ?? '');
}

/** A label before a value: a Latin label ending in a letter, digit or stop gets a space, `证书编号：` none. */
export function withLabel(label: string, value: string): string {
  if (label === '') return value;
  return /[A-Za-z0-9.:#]$/.test(label) ? `${label} ${value}` : `${label}${value}`;
}

/** Characters a line may break before or after on their own: CJK ideographs, kana, hangul and full-width forms. */
const CJK =
  /[\u2e80-\u2fff\u3000-\u30ff\u3100-\u31ff\u3200-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]|[\u{20000}-\u{3134f}]/u;
/** Punctuation that never starts a line (it stays with the character before). */
const NO_LINE_START = /^[、。，．,.!?！？：；:;）」』】〉》)\]}ー〜…]/u;

/**
 * Splits a paragraph into the pieces a line may break between: every CJK character alone (with a closing
 * punctuation mark kept on it), Latin words with the spaces after them.
 */
function pieces(paragraph: string): string[] {
  const out: string[] = [];
  let word = '';
  for (const char of paragraph) {
    if (CJK.test(char)) {
      if (word !== '') out.push(word);
      word = '';
      if (NO_LINE_START.test(char) && out.length > 0) out[out.length - 1] += char;
      else out.push(char);
    } else if (char === ' ') {
      out.push(`${word} `);
      word = '';
    } else if (word === '' && NO_LINE_START.test(char) && out.length > 0 && !out[out.length - 1]!.endsWith(' ')) {
      out[out.length - 1] += char;
    } else {
      word += char;
    }
  }
  if (word !== '') out.push(word);
  return out;
}

/**
 * Wraps text into lines no wider than `maxWidth` (as `widthOf` measures): CJK text breaks between any two
 * characters, Latin text between words, a word longer than a line between its letters; `\n` starts a new line.
 */
export function wrapText(text: string, maxWidth: number, widthOf: (s: string) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const piece of pieces(paragraph)) {
      if (widthOf((line + piece).trimEnd()) <= maxWidth) {
        line += piece;
        continue;
      }
      if (line.trim() !== '') lines.push(line.trimEnd());
      line = '';
      if (widthOf(piece.trimEnd()) <= maxWidth) {
        line = piece;
        continue;
      }
      for (const char of piece) {
        if (line !== '' && widthOf((line + char).trimEnd()) > maxWidth) {
          lines.push(line.trimEnd());
          line = '';
        }
        line += char;
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}
