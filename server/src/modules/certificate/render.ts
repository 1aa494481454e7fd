import { CERT_SEARCH_PAGE, type TCertDesign } from '@aiedu/contracts';
import type { AppContext } from '../../platform/context.js';
import { renderPages, type CertificateValues } from './render-page.js';

export type { CertificateValues } from './render-page.js';

/** One certificate as a PDF: the design drawn with the holder's values, fonts subset and embedded, a QR code of verifyUrl. */
export function renderCertificatePdf(
  ctx: AppContext,
  design: TCertDesign,
  values: CertificateValues,
): Promise<Uint8Array> {
  return renderPages(ctx, [{ design, values }]);
}

/** Several certificates (a class of 40) as one merged PDF, one page each, fonts embedded once. */
export function renderMergedPdf(
  ctx: AppContext,
  pages: { design: TCertDesign; values: CertificateValues }[],
): Promise<Uint8Array> {
  return renderPages(ctx, pages);
}

/** The public verification address of a number: `${ctx.config.publicUrl}/pjedu/certificate-search?number=…`. */
export function verifyUrlOf(ctx: AppContext, number: string): string {
  return `${ctx.config.publicUrl.replace(/\/+$/, '')}${CERT_SEARCH_PAGE}?number=${encodeURIComponent(number)}`;
}
