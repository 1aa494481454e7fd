/**
 * The data the server sent with the page (server/src/platform/web-app.ts, a filled frame): the answer of one API
 * call, as it would answer it now, so the first render draws what the frame showed without asking again.
 */
let pageData: { api: string; body: unknown } | null = null;

/** Keeps the page's data before the first render replaces the frame it came in. */
export function readPageData(): void {
  const element = document.getElementById('page-data');
  if (!element?.textContent) return;
  try {
    const parsed: unknown = JSON.parse(element.textContent);
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { api?: unknown }).api === 'string') {
      pageData = parsed as { api: string; body: unknown };
    }
  } catch {
    // The app asks the server instead.
  }
  element.remove();
}

/** The answer the page came with for this API call, once: the next asks are the server's. */
export function takePageData<T>(api: string): T | undefined {
  if (pageData?.api !== api) return undefined;
  const { body } = pageData;
  pageData = null;
  return body as T;
}
