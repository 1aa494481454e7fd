import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../app/i18n';
import { dayjs } from './dates';

afterEach(async () => {
  await changeLanguage('en', { remember: false });
});

describe('dates', () => {
  it('follow the product language', async () => {
    const date = '2025-03-01';
    expect(dayjs(date).format('MMMM')).toBe('March');

    await changeLanguage('zh_CHS', { remember: false });
    expect(dayjs(date).format('MMMM')).toBe('三月');

    await changeLanguage('ja', { remember: false });
    expect(dayjs(date).format('MMMM')).toBe('3月');
  });
});
