import { describe, expect, it } from 'vitest';
import { ERRORS, errorByCode } from './errors.js';
import { LANGUAGES, languageFromBrowser } from './languages.js';
import { ERROR_MESSAGES, errorMessageIn } from './locales/index.js';

describe('error catalogue', () => {
  const entries = Object.values(ERRORS);

  it('has unique string codes and keys', () => {
    expect(new Set(entries.map((e) => e.code)).size).toBe(entries.length);
    expect(new Set(entries.map((e) => e.key)).size).toBe(entries.length);
    expect(entries.every((e) => typeof e.code === 'string')).toBe(true);
  });

  it('keeps the codes the clients react to', () => {
    expect(ERRORS.SUCCESS).toMatchObject({ code: '1000', status: 200 });
    expect(ERRORS.TOKEN_EXPIRED).toMatchObject({ code: '1107', status: 401 });
    expect(ERRORS.TOO_FREQUENT.code).toBe('1109');
    expect(ERRORS.CAPTCHA_REQUIRED.code).toBe('1104');
    expect(ERRORS.SESSION_REPLACED.code).toBe('E002');
    expect(ERRORS.ACCOUNT_DISABLED.code).toBe('E003');
    expect(ERRORS.PROFILE_INCOMPLETE.code).toBe('F107');
    expect(ERRORS.BAD_REQUEST).toMatchObject({ code: '1001', status: 400 });
    expect(ERRORS.FILE_TOO_LARGE.status).toBe(413);
    expect(errorByCode('E002')).toBe(ERRORS.SESSION_REPLACED);
    expect(errorByCode('nope')).toBeUndefined();
  });

  it.each(LANGUAGES)('has a message for every error in %s', (language) => {
    const messages = ERROR_MESSAGES[language];
    for (const entry of entries) {
      if (entry.key === 'success') continue;
      expect(messages[entry.key], `${language}.${entry.key}`).toMatch(/\S/);
    }
    expect(Object.keys(messages).sort()).toEqual(entries.map((e) => e.key).sort());
  });

  it.each(LANGUAGES)('gives the rate limits in Chinese only and everything else in %s', (language) => {
    expect(errorMessageIn(language, 'tooFrequent')).toBe(ERROR_MESSAGES.zh_CHS.tooFrequent);
    expect(errorMessageIn(language, 'uploadRateLimited')).toBe(ERROR_MESSAGES.zh_CHS.uploadRateLimited);
    expect(errorMessageIn(language, 'wrongCredentials')).toBe(ERROR_MESSAGES[language].wrongCredentials);
  });

  it('uses the exact wording of the specification for permission messages', () => {
    expect(ERROR_MESSAGES.en.noPermissionPage).toBe('The current user does not have permission to access this page');
    expect(ERROR_MESSAGES.en.noEditPermission).toBe('The user does not have edit permissions');
    expect(ERROR_MESSAGES.en.tagExists).toBe('Tag already exists!');
  });
});

describe('languageFromBrowser', () => {
  it.each([
    ['zh-TW', 'zh_CHT'],
    ['zh-HK', 'zh_CHT'],
    ['zh-Hant-TW', 'zh_CHT'],
    ['zh-CN', 'zh_CHS'],
    ['zh', 'zh_CHS'],
    ['zh-SG', 'zh_CHS'],
    ['ja', 'ja'],
    ['ja-JP', 'ja'],
    ['en-US', 'en'],
    ['fr-FR', 'en'],
    ['', 'en'],
    [undefined, 'en'],
  ])('maps %s to %s', (tag, expected) => expect(languageFromBrowser(tag)).toBe(expected));
});
