import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { initI18n } from '../app/i18n';
import { closeLoginDialog } from '../app/sign-dialogs';

// findBy*/waitFor wait for a condition, never a fixed time; pages load their code and texts lazily, which on a
// loaded 2-core CI machine (first imports of a page's code in a fresh run) can take seconds, not the library's 1 s.
configure({ asyncUtilTimeout: 10_000 });

// Unit tests never reach a network: a request no fake answers (a page still mounted after a test restored its
// mocks and refetching as the session ends) fails as the browser's own offline fetch does, instead of trying
// localhost for real.
window.fetch = (input) => Promise.reject(new TypeError(`Failed to fetch ${String(input)}: no network in unit tests`));

await initI18n('en');

afterEach(() => {
  cleanup();
  // A page for signed-in people opens the login dialog for a visitor (also when a test's end signs out under it):
  // the next test starts without it.
  closeLoginDialog();
});
