import { ReloadOutlined } from '@ant-design/icons';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NotFoundPage } from '../features/placeholders/not-found-page';
import { ShellButton } from '../ui/shell-button';
import { StatusCard } from '../ui/status-card';

/** "Something went wrong" with a reload button: what every failure boundary shows. */
export function ErrorScreen() {
  const { t } = useTranslation();
  return (
    <StatusCard
      icon={<ReloadOutlined />}
      title={t('error.title')}
      body={t('error.body')}
      action={
        <ShellButton kind="primary" size="large" onClick={() => window.location.reload()}>
          {t('error.reload')}
        </ShellButton>
      }
    />
  );
}

/** The errorElement of the pages: shown inside the layout (a page failed to load or render). */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return <ErrorScreen />;
}

/** The errorElement of the layout itself: no header or footer to lean on, so it brings its own landmark. */
export function RootErrorPage() {
  return (
    <main className="app-main">
      <ErrorScreen />
    </main>
  );
}

interface BoundaryState {
  failed: boolean;
}

/** Catches what the router cannot (a provider failing); wraps the whole app. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return <RootErrorPage />;
  }
}
