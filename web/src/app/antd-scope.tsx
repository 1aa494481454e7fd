import { ConfigProvider } from 'antd';
import type { ComponentType, ReactNode } from 'react';
import { antdLocale, loadAntdLocale } from './antd-locale';
import { loadAntdStyles, withAntdStyles } from './antd-styles';
import { currentLanguage, detectLanguage, i18n, useLanguage } from './i18n';
import { theme } from './theme';

// The library's texts in the language the app starts in (or runs in) load with the library, not with the app: the
// landing pages never need them. Switching language loads the new language's first (i18n.ts).
// So are its styles, before the first render that uses them (antd-styles.ts).
await Promise.all([loadAntdLocale(i18n.isInitialized ? currentLanguage() : detectLanguage()), loadAntdStyles()]);

const THEME = withAntdStyles(theme);

// antd spaces out two-character Chinese labels ("登 录"); screen readers and children read them better whole.
const BUTTON_CONFIG = { autoInsertSpace: false };

/**
 * The component library's theme and its texts in the user's language, around whatever uses the library: every page
 * but the ones a visitor lands on, the sign-in dialogs, the toasts and the system notice. Only code that already
 * loads antd imports this module, so the landing pages never download the library.
 */
export function AntdScope({ children }: { children: ReactNode }) {
  const language = useLanguage();
  return (
    <ConfigProvider theme={THEME} locale={antdLocale(language)} button={BUTTON_CONFIG}>
      {children}
    </ConfigProvider>
  );
}

/** A component rendered inside AntdScope (a page of the route table, a lazily loaded dialog). */
export function withAntdScope<P extends object>(Inner: ComponentType<P>): ComponentType<P> {
  function Scoped(props: P) {
    return (
      <AntdScope>
        <Inner {...props} />
      </AntdScope>
    );
  }
  Scoped.displayName = `AntdScope(${Inner.displayName ?? Inner.name})`;
  return Scoped;
}
