import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { initI18n } from '../app/i18n';

await initI18n('en');

afterEach(() => {
  cleanup();
});
