import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../app/i18n';
import { formatBytes } from './sizes';

describe('sizes', () => {
  afterEach(() => changeLanguage('en', { remember: false }));

  it('reads in kilobytes, megabytes or gigabytes, to one decimal above kilobytes', async () => {
    await changeLanguage('en', { remember: false });
    expect(formatBytes(10)).toBe('1 kB');
    expect(formatBytes(300 * 1024)).toBe('300 kB');
    expect(formatBytes(1.25 * 2 ** 20)).toBe('1.3 MB');
    expect(formatBytes(77.04 * 2 ** 30)).toBe('77 GB');
    expect(formatBytes(2.5 * 2 ** 30)).toBe('2.5 GB');
  });
});
