import { Spin } from 'antd';
import type * as PdfJsModule from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';

type PdfData = Uint8Array | ArrayBuffer | Blob | null;
type PdfJs = typeof PdfJsModule;

let pdfjs: Promise<PdfJs> | null = null;

/** pdf.js and its worker, loaded on the first page that shows a PDF. */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(
    ([lib, worker]) => {
      lib.GlobalWorkerOptions.workerSrc = worker.default;
      return lib;
    },
  );
  return pdfjs;
}

async function bytesOf(data: Exclude<PdfData, null>): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data.slice();
  if (data instanceof Blob) return new Uint8Array(await data.arrayBuffer());
  return new Uint8Array(data.slice(0));
}

function useContainerWidth(ref: React.RefObject<HTMLElement | null>, fixed: number | undefined): number {
  const [measured, setMeasured] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (fixed !== undefined || !element) return;
    const measure = () => setMeasured(Math.floor(element.clientWidth));
    // The observer reports the first size as soon as it starts observing.
    if (typeof ResizeObserver === 'undefined') return void queueMicrotask(measure);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, fixed]);
  return fixed ?? measured;
}

/**
 * Page 1 of a PDF drawn into a canvas, `width` CSS pixels wide (its container's width by default) and sharp on
 * high-density screens. A newer `data` cancels the drawing of an older one, so fast live previews never overlap.
 */
export function PdfView(props: { data: PdfData; label: string; width?: number; loading?: boolean }) {
  const { data, label, width: fixedWidth, loading } = props;
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const width = useContainerWidth(boxRef, fixedWidth);
  // The data last drawn (or that failed to draw): anything else is still being drawn.
  const [settled, setSettled] = useState<{ data: PdfData; failed: boolean } | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!data || !canvas || width <= 0) return;
    let cancelled = false;
    let cancelRender: (() => void) | null = null;
    let destroy: (() => void) | null = null;
    void (async () => {
      try {
        const lib = await loadPdfJs();
        const bytes = await bytesOf(data);
        if (cancelled) return;
        const task = lib.getDocument({ data: bytes, isEvalSupported: false });
        destroy = () => void task.destroy();
        const doc = await task.promise;
        const page = await doc.getPage(1);
        if (cancelled) return;
        const base = page.getViewport({ scale: 1 });
        const ratio = window.devicePixelRatio || 1;
        const viewport = page.getViewport({ scale: (width / base.width) * ratio });
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${width}px`;
        canvas.style.height = `${Math.floor(viewport.height / ratio)}px`;
        const render = page.render({ canvas, viewport });
        cancelRender = () => render.cancel();
        await render.promise;
        if (!cancelled) setSettled({ data, failed: false });
      } catch (error) {
        if (cancelled || (error as { name?: string }).name === 'RenderingCancelledException') return;
        setSettled({ data, failed: true });
      }
    })();
    return () => {
      cancelled = true;
      cancelRender?.();
      destroy?.();
    };
  }, [data, width]);

  const busy = Boolean(loading) || (Boolean(data) && settled?.data !== data);
  const failed = settled?.data === data && settled.failed;
  return (
    <div ref={boxRef} className="pdf-view" aria-busy={busy}>
      <Spin spinning={busy}>
        <canvas ref={canvasRef} role="img" aria-label={label} data-failed={failed || undefined} />
      </Spin>
    </div>
  );
}
