import {
  CERT_API,
  CERT_LIMITS,
  type TCertDetail,
  type TCertPic,
  type TCertPreviewRequest,
  type TCreateCertRequest,
  type TUpdateCertRequest,
} from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../app/api';
import { ApiError } from '../../app/api-client';

/** The calls of the templates list and the designer. */

export function useTemplateDetail(certId: string | undefined) {
  return useQuery({
    queryKey: [CERT_API.certDetail, certId],
    queryFn: () => api.get<TCertDetail>(CERT_API.certDetail, { query: { certId } }),
    enabled: Boolean(certId),
  });
}

export const deleteTemplate = (certId: string) => api.delete<null>(CERT_API.cert, { query: { certId } });

/** Refusals the designer shows on its fields instead of a toast. */
const FIELD_CODES = ['1001'] as const;

export function saveTemplate(body: TCreateCertRequest | TUpdateCertRequest) {
  return 'id' in body
    ? api.put<TCertDetail>(CERT_API.cert, body, { handledCodes: FIELD_CODES })
    : api.post<TCertDetail>(CERT_API.cert, body, { handledCodes: FIELD_CODES });
}

/** The refusal's problems by form field (`body.design.title` → `title`), or null when it names none. */
export function fieldIssues(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || typeof error.body !== 'object') return null;
  const issues = (error.body.data as { issues?: { path: string; message: string }[] } | null)?.issues;
  if (!issues?.length) return null;
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.path.replace(/^body\.?/, '').replace(/^design\.(?!elements)/, '');
    fields[path] ??= issue.message;
  }
  return fields;
}

export function nextNumber(prefix: string, digits: number, signal?: AbortSignal) {
  return api.get<{ number: string }>(CERT_API.nextNumber, { query: { prefix, digits }, signal, quiet: true });
}

/** The server's rendering of a design: the same PDF an issued certificate gets. */
export function previewPdf(body: TCertPreviewRequest, signal: AbortSignal) {
  return api.download(CERT_API.preview, { method: 'POST', body, signal, quiet: true });
}

export type PicRefusal = 'type' | 'size';

/** Why an image may not be a certificate's background or seal (spec 5: JPG or PNG, under 5 MB), or null. */
export function checkPic(file: File): PicRefusal | null {
  if (!['image/jpeg', 'image/png'].includes(file.type) && !/\.(jpe?g|png)$/i.test(file.name)) return 'type';
  if (file.size > CERT_LIMITS.imageBytes) return 'size';
  return null;
}

export function uploadPic(file: File, originUrl: string | null) {
  const form = new FormData();
  form.append('file', file);
  return api.put<TCertPic>(CERT_API.uploadCertPic, form, { query: { originUrl: originUrl ?? undefined } });
}
