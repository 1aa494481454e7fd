import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { initI18n } from '../app/i18n';

// findBy*/waitFor wait for a condition, never a fixed time; pages load their code and texts lazily, which on a
// loaded 2-core CI machine (first imports of a page's code in a fresh run) can take seconds, not the library's 1 s.
configure({ asyncUtilTimeout: 10_000 });

await initI18n('en');

afterEach(() => {
  cleanup();
});
