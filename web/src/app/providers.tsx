import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { antdLocale } from './antd-locale';
import { FeedbackHost } from './feedback';
import { i18n, useLanguage } from './i18n';
import { theme } from './theme';

// antd spaces out two-character Chinese labels ("登 录"); screen readers and children read them better whole.
const BUTTON_CONFIG = { autoInsertSpace: false };

function ThemedApp({ children }: { children: ReactNode }) {
  const language = useLanguage();
  return (
    <ConfigProvider theme={theme} locale={antdLocale(language)} button={BUTTON_CONFIG}>
      <FeedbackHost />
      {children}
    </ConfigProvider>
  );
}

/** i18n, server state, and antd (theme, locale following the language, global toasts). */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <ThemedApp>{children}</ThemedApp>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
