import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { NotFoundPage } from '../features/placeholders/not-found-page';
import { AppLayout } from './layout/app-layout';
import { PageLoading } from './layout/page-loading';
import { RootErrorPage, RouteErrorPage } from './error-pages';
import { loadNamespaces } from './i18n';
import { moduleGated, type Module } from './module-gate';
import { PATHS } from './paths';
import { comingSoonPage, SCREENS, type PageLoader, type Screen } from './routes';
import type { ScreenHandle } from './screen';

function lazyPage(load: PageLoader, module: Module | undefined): RouteObject['lazy'] {
  if (!module) return async () => ({ Component: await load() });
  // A module's page may answer with the refusal, whose text is in the `errors` namespace.
  return async () => {
    const [Page] = await Promise.all([load(), loadNamespaces(['errors'])]);
    return { Component: moduleGated(module, Page) };
  };
}

function screenRoute(screen: Screen): RouteObject {
  const handle: ScreenHandle = { screen: screen.id };
  return { path: screen.path, handle, lazy: lazyPage(screen.page ?? comingSoonPage, screen.module) };
}

/** The route objects of the table: every page inside the layout, lazily loaded. */
export function buildRoutes(screens: readonly Screen[] = SCREENS): RouteObject[] {
  const notFound: ScreenHandle = { screen: 'notFound' };
  return [
    {
      Component: AppLayout,
      errorElement: <RootErrorPage />,
      children: [
        {
          // Inside the layout, so the header and footer stay while a page loads or fails.
          HydrateFallback: PageLoading,
          errorElement: <RouteErrorPage />,
          children: [
            { index: true, element: <Navigate to={PATHS.home} replace /> },
            ...screens.map(screenRoute),
            { path: '*', handle: notFound, Component: NotFoundPage },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
