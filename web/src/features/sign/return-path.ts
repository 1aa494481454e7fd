/**
 * A return address from the query (`from`, `targetUrl`) as an in-app path, or null. Only this
 * origin's pages qualify, so a crafted link cannot send a freshly signed-in user elsewhere.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value, window.location.origin);
    if (url.origin !== window.location.origin) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}
