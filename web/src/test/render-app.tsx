import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
// Pages load the component library's scope lazily; importing it with the test file keeps that one-off module load
// (slow under the test DOM) out of the first test's time budget, as it is out of a browser's first paint.
import '../app/antd-scope';
import { AppProviders } from '../app/providers';
import { createQueryClient } from '../app/query-client';
import { buildRoutes } from '../app/router';

/** Renders the whole app (providers, layout, route table) at a path, as the browser would. */
export function renderApp(path: string) {
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [path] });
  const view = render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router };
}
