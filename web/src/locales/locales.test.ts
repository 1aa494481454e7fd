import { ERROR_MESSAGES, ERRORS, LANGUAGES } from '@aiedu/contracts';
import { describe, expect, it } from 'vitest';

/** Every locale file, keyed by its path relative to this folder: './en/common.json'. */
const FILES = import.meta.glob<Record<string, unknown>>('./*/*.json', { eager: true, import: 'default' });
/** Every component, to check it renders no literal text. */
const SOURCES = import.meta.glob<string>(['../**/*.tsx', '!../**/*.test.tsx', '!../test/**'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

function flatten(value: unknown, prefix = ''): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { [prefix]: value };
  return Object.assign(
    {},
    ...Object.entries(value).map(([key, child]) => flatten(child, prefix ? `${prefix}.${key}` : key)),
  );
}

const placeholders = (text: unknown) => [...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const namespaces = [
  ...new Set(Object.keys(FILES).map((path) => path.split('/')[2]?.replace('.json', '') ?? '')),
].sort();

describe('locales', () => {
  it('has the same namespaces in every language', () => {
    for (const language of LANGUAGES) {
      const own = Object.keys(FILES)
        .filter((path) => path.startsWith(`./${language}/`))
        .map((path) => path.split('/')[2]?.replace('.json', ''))
        .sort();
      expect(own, language).toEqual(namespaces);
    }
  });

  describe.each(namespaces)('namespace %s', (namespace) => {
    const english = flatten(FILES[`./en/${namespace}.json`]);

    it.each(LANGUAGES.filter((l) => l !== 'en'))('has exactly the English keys in %s', (language) => {
      const texts = flatten(FILES[`./${language}/${namespace}.json`]);
      expect(Object.keys(texts).sort()).toEqual(Object.keys(english).sort());
    });

    it.each(LANGUAGES)('has no empty text and the same {{placeholders}} in %s', (language) => {
      const texts = flatten(FILES[`./${language}/${namespace}.json`]);
      for (const [key, text] of Object.entries(texts)) {
        expect(typeof text === 'string' && text.trim().length > 0, `${language}/${namespace}:${key}`).toBe(true);
        expect(placeholders(text), `${language}/${namespace}:${key}`).toEqual(placeholders(english[key]));
      }
    });
  });

  it('has every error message of the catalogue in every language (the errors namespace)', () => {
    for (const language of LANGUAGES) {
      for (const { key } of Object.values(ERRORS)) {
        if (key === 'success') continue;
        expect(ERROR_MESSAGES[language][key]?.trim(), `${language}:${key}`).toBeTruthy();
      }
    }
  });
});

describe('components', () => {
  it.each(Object.keys(SOURCES))('%s renders no literal text', (path) => {
    const source = SOURCES[path] ?? '';
    // Text between JSX tags, and text in attributes people read or hear.
    const jsxText = [...source.matchAll(/>\s*([^<>{}`=;()]*\p{L}[^<>{}`=;()]*?)\s*<\//gu)].map((m) => m[1]);
    const attributes = [...source.matchAll(/\b(?:aria-label|alt|title|placeholder)="([^"]*\p{L}[^"]*)"/gu)].map(
      (m) => m[1],
    );
    expect([...jsxText, ...attributes]).toEqual([]);
  });
});
