import type { TCertPreviewRequest } from '@aiedu/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PdfView } from './pdf-view';
import { nextNumber, previewPdf } from './template-api';

/** How long the design rests before the server renders it again. */
export const PREVIEW_DELAY_MS = 600;

/**
 * The server's rendering of the design, asked for 600 ms after the last change; a newer design cancels the request
 * of an older one, so only the latest drawing arrives.
 */
export function useLivePreview(request: TCertPreviewRequest | null) {
  const [result, setResult] = useState<{ key: string; pdf: Blob | null; failed: boolean } | null>(null);
  const key = request ? JSON.stringify(request) : '';
  useEffect(() => {
    if (!key) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      previewPdf(JSON.parse(key) as TCertPreviewRequest, controller.signal).then(
        (pdf) => setResult({ key, pdf, failed: false }),
        () => {
          if (!controller.signal.aborted) setResult((last) => ({ key, pdf: last?.pdf ?? null, failed: true }));
        },
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [key]);
  return { pdf: result?.pdf ?? null, failed: result?.key === key && result.failed, pending: result?.key !== key };
}

/** The number the next certificate of the rule would get today, or null while the rule is not valid. */
export function useNextNumber(prefix: string, digits: number, valid: boolean) {
  const [answer, setAnswer] = useState<{ rule: string; number: string } | null>(null);
  const rule = valid ? `${prefix}|${digits}` : '';
  useEffect(() => {
    if (!rule) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      const [p = '', d = '4'] = rule.split('|');
      nextNumber(p, Number(d), controller.signal).then(
        ({ number }) => setAnswer({ rule, number }),
        () => undefined,
      );
    }, 300);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [rule]);
  return answer?.rule === rule ? answer.number : null;
}

/** The live preview beside the designer: the PDF as it will be issued. */
export function PreviewPane({ pdf, pending, failed }: ReturnType<typeof useLivePreview>) {
  const { t } = useTranslation('certDesign');
  return (
    <section className="designer-preview" aria-labelledby="designer-preview-title">
      <h2 id="designer-preview-title">{t('preview.title')}</h2>
      <p className="admin-muted">{t('preview.lead')}</p>
      {failed && (
        <p role="alert" className="designer-error">
          {t('preview.failed')}
        </p>
      )}
      <PdfView data={pdf} label={t('preview.label')} loading={pending} />
    </section>
  );
}
