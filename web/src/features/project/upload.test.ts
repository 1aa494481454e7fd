import { afterEach, describe, expect, it, vi } from 'vitest';
import { UploadError, uploadFile } from './upload';

/** An XMLHttpRequest that ends as `end` says: a network failure, or an answer of `status` with `body`. */
function fakeRequest(end: { network: true } | { status: number; body: string }) {
  return class {
    upload = { onprogress: null };
    status = 0;
    responseText = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    open() {}
    setRequestHeader() {}
    send() {
      queueMicrotask(() => {
        if ('network' in end) return this.onerror?.();
        this.status = end.status;
        this.responseText = end.body;
        this.onload?.();
      });
    }
  };
}

const send = () => uploadFile('p1', '', new File(['a,b'], 'data.csv'), () => undefined);
const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof UploadError ? error.reason : error),
  );

describe('project file upload', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("resolves with the server's envelope, refusals included", async () => {
    const refusal = { errorCode: '2006', errorMsg: 'File too large', data: null };
    vi.stubGlobal('XMLHttpRequest', fakeRequest({ status: 413, body: JSON.stringify(refusal) }));
    await expect(send()).resolves.toEqual(refusal);
  });

  it('rejects as a network failure when no answer comes', async () => {
    vi.stubGlobal('XMLHttpRequest', fakeRequest({ network: true }));
    expect(await reasonOf(send())).toBe('network');
  });

  it("rejects as a failed upload when the answer is not the server's", async () => {
    vi.stubGlobal('XMLHttpRequest', fakeRequest({ status: 502, body: '<html>Bad gateway</html>' }));
    expect(await reasonOf(send())).toBe('failed');
  });
});
