import type { ThemeConfig } from 'antd';
// The component library's whole stylesheet, as the library builds it (web/vite.config.ts): its rules read the
// theme from CSS variables. Null on the dev server.
import stylesheet from 'virtual:antd-stylesheet';

/**
 * The component library's styles come from its stylesheet, a file cached for a year, instead of being generated and
 * inserted by the library at every first render of a component (`zeroRuntime`): on a school phone that was most of
 * the blocking time of a page's first render. The theme's values stay the library's CSS variables, which it still
 * writes at run time (our tokens, our component tokens). The stylesheet goes before every other style of the page,
 * where the library put its styles, so the app's own rules keep winning ties. It is asked for when the first page
 * using the library loads (not announced with the page: downloaded beside the page's first paint, it delayed it).
 * If it cannot be loaded, the library generates its styles as before. Only the built app does this: the dev server
 * and the tests keep the generated styles.
 */
let loaded = false;

export function loadAntdStyles(): Promise<void> {
  if (!stylesheet || loaded) return Promise.resolve();
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  const settled = new Promise<void>((resolve) => {
    link.addEventListener('load', () => {
      loaded = true;
      resolve();
    });
    link.addEventListener('error', () => {
      link.remove();
      resolve();
    });
  });
  link.href = stylesheet;
  document.head.insertBefore(link, document.head.querySelector('link[rel="stylesheet"], style'));
  return settled;
}

/** The theme, without run-time styles once the stylesheet is in the page. */
export function withAntdStyles(theme: ThemeConfig): ThemeConfig {
  return loaded ? { ...theme, zeroRuntime: true } : theme;
}
