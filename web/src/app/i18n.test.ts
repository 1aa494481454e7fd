import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectLanguage, HTML_LANG, i18n } from './i18n';

afterEach(() => {
  document.cookie = 'language=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  vi.restoreAllMocks();
});

describe('language detection', () => {
  it('takes the language cookie when it names a product language', () => {
    document.cookie = 'language=zh_CHT; path=/';
    expect(detectLanguage()).toBe('zh_CHT');
  });

  it.each([
    ['zh-CN', 'zh_CHS'],
    ['zh-TW', 'zh_CHT'],
    ['ja-JP', 'ja'],
    ['fr-FR', 'en'],
  ])('falls back to the browser language %s → %s', (browser, expected) => {
    document.cookie = 'language=klingon; path=/';
    vi.spyOn(navigator, 'language', 'get').mockReturnValue(browser);
    expect(detectLanguage()).toBe(expected);
  });

  it('maps every language to an <html lang> tag and uses the product codes in i18next', () => {
    expect(HTML_LANG).toEqual({ en: 'en', zh_CHS: 'zh-CN', zh_CHT: 'zh-TW', ja: 'ja' });
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });
});

describe('loading a page’s texts', () => {
  it('loads the namespaces a page asks for before the start has finished, once it has', async () => {
    vi.resetModules();
    const fresh = await import('./i18n');
    const loading = fresh.loadNamespaces(['admin']);
    await fresh.initI18n('en');
    await loading;
    expect(fresh.i18n.hasLoadedNamespace('admin')).toBe(true);
    expect(fresh.i18n.t('menu.label', { ns: 'admin' })).toBe('Administration menu');
  });
});
