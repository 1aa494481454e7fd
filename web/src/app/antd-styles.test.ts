import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('virtual:antd-stylesheet', () => ({ default: '/assets/antd-abc123.css' }));

const THEME = { token: { colorPrimary: '#1f5fcc' } };

/** How the test's browser answers a stylesheet: loaded, or refused (it fetches nothing). */
function stylesheetsLoad(load: boolean) {
  const { settings } = (window as unknown as { happyDOM: { settings: Record<string, unknown> } }).happyDOM;
  settings.handleDisabledFileLoadingAsSuccess = load;
}

/** The module afresh: whether the stylesheet loaded is kept for the page's life. */
async function fresh() {
  vi.resetModules();
  return import('./antd-styles');
}

describe("the component library's stylesheet", () => {
  afterEach(() => {
    stylesheetsLoad(false);
    for (const node of document.head.querySelectorAll('link, style')) node.remove();
  });

  it('goes before every other style of the page, and once loaded the library generates no styles', async () => {
    stylesheetsLoad(true);
    const own = document.createElement('style');
    document.head.append(own);
    const { loadAntdStyles, withAntdStyles } = await fresh();
    expect(withAntdStyles(THEME)).toEqual(THEME);

    await loadAntdStyles();
    const link = document.head.querySelector<HTMLLinkElement>('link[rel="stylesheet"]')!;
    expect(link.getAttribute('href')).toBe('/assets/antd-abc123.css');
    expect(link.nextElementSibling).toBe(own);
    expect(withAntdStyles(THEME)).toEqual({ ...THEME, zeroRuntime: true });
    // Asked again (another page of the library), nothing is added.
    await loadAntdStyles();
    expect(document.head.querySelectorAll('link')).toHaveLength(1);
  });

  it('leaves the styles to the library when the stylesheet cannot be loaded', async () => {
    const { loadAntdStyles, withAntdStyles } = await fresh();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await loadAntdStyles();
    errors.mockRestore();
    expect(document.head.querySelector('link')).toBeNull();
    expect(withAntdStyles(THEME)).toEqual(THEME);
  });
});
