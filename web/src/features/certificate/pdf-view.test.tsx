import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PdfView } from './pdf-view';

// pdf.js itself draws in a browser; here a stand-in records what the view asks of it.
const calls = vi.hoisted(() => ({
  opened: [] as { data: Uint8Array; isEvalSupported: boolean }[],
  rendered: [] as { scale: number; cancelled: boolean; finish: () => void }[],
  workerSrc: '',
}));

vi.mock('pdfjs-dist/build/pdf.worker.min.mjs?url', () => ({ default: '/assets/pdf.worker.min.mjs' }));
vi.mock('pdfjs-dist', () => ({
  GlobalWorkerOptions: {
    set workerSrc(value: string) {
      calls.workerSrc = value;
    },
  },
  getDocument: (options: { data: Uint8Array; isEvalSupported: boolean }) => {
    calls.opened.push(options);
    return {
      destroy: () => Promise.resolve(),
      promise: Promise.resolve({
        getPage: () =>
          Promise.resolve({
            getViewport: ({ scale }: { scale: number }) => ({ width: 930 * scale, height: 650 * scale, scale }),
            render: ({ viewport }: { viewport: { scale: number } }) => {
              let finish = () => undefined as void;
              let fail: (error: Error) => void = () => undefined;
              const promise = new Promise<void>((resolve, reject) => {
                finish = resolve;
                fail = reject;
              });
              const entry = { scale: viewport.scale, cancelled: false, finish };
              calls.rendered.push(entry);
              return {
                promise,
                cancel: () => {
                  entry.cancelled = true;
                  fail(Object.assign(new Error('cancelled'), { name: 'RenderingCancelledException' }));
                },
              };
            },
          }),
      }),
    };
  },
}));

afterEach(() => {
  calls.opened.length = 0;
  calls.rendered.length = 0;
});

const pdf = (text: string) => new TextEncoder().encode(`%PDF-1.7 ${text}`);

describe('PdfView', () => {
  it('draws page 1 at the width asked, busy until drawn, with the worker from this origin and no eval', async () => {
    render(<PdfView data={pdf('a')} label="Preview of the certificate" width={465} />);
    const canvas = screen.getByRole('img', { name: 'Preview of the certificate' });
    await waitFor(() => expect(calls.rendered).toHaveLength(1));
    expect(calls.workerSrc).toBe('/assets/pdf.worker.min.mjs');
    expect(calls.opened[0]!.isEvalSupported).toBe(false);
    expect(canvas.style.width).toBe('465px');
    expect(canvas.style.height).toBe('325px');
    expect(canvas.closest('[aria-busy]')!.getAttribute('aria-busy')).toBe('true');
    calls.rendered[0]!.finish();
    await waitFor(() => expect(canvas.closest('[aria-busy]')!.getAttribute('aria-busy')).toBe('false'));
  });

  it('cancels the drawing of older data when newer data arrives', async () => {
    const view = render(<PdfView data={pdf('first')} label="Preview" width={300} />);
    await waitFor(() => expect(calls.rendered).toHaveLength(1));
    view.rerender(<PdfView data={pdf('second')} label="Preview" width={300} />);
    await waitFor(() => expect(calls.rendered).toHaveLength(2));
    expect(calls.rendered[0]!.cancelled).toBe(true);
    expect(calls.rendered[1]!.cancelled).toBe(false);
    expect(new TextDecoder().decode(calls.opened[1]!.data)).toBe('%PDF-1.7 second');
  });
});
