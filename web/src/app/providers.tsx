import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { FeedbackHost } from './feedback';
import { i18n } from './i18n';
import { onSessionCleared } from './session';

/**
 * i18n, server state and the global feedback (toasts, system notice). The component library's theme is not here:
 * it wraps each part that uses the library (antd-scope.tsx), so the landing pages load without it.
 */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  // What was loaded for a user is theirs: it goes with their session, however that ends.
  useEffect(() => onSessionCleared(() => queryClient.clear()), [queryClient]);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <FeedbackHost />
        {children}
      </QueryClientProvider>
    </I18nextProvider>
  );
}
