import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { initI18n } from '../app/i18n';

// findBy*/waitFor wait for a condition, never a fixed time; pages load their code and texts lazily, which on a
// loaded 2-core CI machine can take longer than the library's 1 s default.
configure({ asyncUtilTimeout: 5000 });

await initI18n('en');

afterEach(() => {
  cleanup();
});
