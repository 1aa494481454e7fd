import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { bindNavigation } from './app/api';
import { AppErrorBoundary } from './app/error-pages';
import { initI18n } from './app/i18n';
import { readPageData } from './app/page-data';
import { sysSettingQuery } from './app/platform';
import { AppProviders } from './app/providers';
import { createQueryClient } from './app/query-client';
import { createAppRouter } from './app/router';
import { settleSession } from './app/session';
import { yieldToBrowser } from './app/yield';
import './app/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// What the server sent with the page is kept before anything replaces the frame it came in.
readPageData();

// Spec 4: a session without its token or its user id is over; what is left of it goes before anything reads it.
settleSession();

// Every page's first render shows the platform's name and logo: asked for now, beside the texts, it is usually
// there in time, and the page is not drawn twice.
const queryClient = createQueryClient();
void queryClient.prefetchQuery(sysSettingQuery);

// The texts of one language load before the first render, so nothing flashes in another language.
const texts = initI18n().catch((error: unknown) => console.error(error));

// On a school phone each step below is tens of milliseconds of work: between them the browser may draw and answer
// a tap, instead of meeting one long task.
await yieldToBrowser();
const router = createAppRouter();
bindNavigation((path) => void router.navigate(path));
await texts;
await yieldToBrowser();

// As a transition, the first page is built in slices between which the browser stays responsive, not in one long
// task: its code and texts are usually all there by now (the server announces them with the page).
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <AppErrorBoundary>
        <AppProviders queryClient={queryClient}>
          <RouterProvider router={router} />
        </AppProviders>
      </AppErrorBoundary>
    </StrictMode>,
  ),
);
