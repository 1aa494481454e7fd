import {
  CERT_API,
  ERRORS,
  type TCert,
  type TCertAuditor,
  type TCertCandidate,
  type TCertDetail,
  type TCertIssuanceDetail,
  type TCertReview,
  type TCertReviewDecision,
  type TCertReviewItem,
  type TCertSettings,
  type TCertUserListResult,
  type TCertVerification,
  type TCreateCertIssuance,
  type TCredentialVerification,
  type TReissueRequest,
  type TUserCert,
} from '@aiedu/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { ApiError } from '../../app/api-client';
import { toast } from '../../app/feedback';
import { i18n } from '../../app/i18n';
import { saveFile } from '../../ui/save-file';

/** The calls of the issuing, holders' and verification screens. */

/** Lists refreshed after a change to issuances or certificates. */
const ISSUING_KEYS = [CERT_API.certIss, CERT_API.certIssDetail, CERT_API.userCert, CERT_API.review] as const;

/** Templates an issuer may choose. */
export function useCertOptions() {
  return useQuery({
    queryKey: [CERT_API.certOptions],
    queryFn: () => api.get<TCert[]>(CERT_API.certOptions),
    staleTime: 60_000,
  });
}

export function useCertDetail(certId: string | undefined) {
  return useQuery({
    queryKey: [CERT_API.certDetail, certId],
    queryFn: () => api.get<TCertDetail>(CERT_API.certDetail, { query: { certId } }),
    enabled: Boolean(certId),
    staleTime: 60_000,
  });
}

export function useIssuanceDetail(certIssId: string | null) {
  return useQuery({
    queryKey: [CERT_API.certIssDetail, certIssId],
    queryFn: () => api.get<TCertIssuanceDetail>(CERT_API.certIssDetail, { query: { certIssId: certIssId! } }),
    enabled: Boolean(certIssId),
  });
}

export function useReviewHistory(certIssId: string | null) {
  return useQuery({
    queryKey: [CERT_API.reviewHistory, certIssId],
    queryFn: () => api.get<TCertReview[]>(CERT_API.reviewHistory, { query: { certIssId: certIssId! } }),
    enabled: Boolean(certIssId),
  });
}

/**
 * The review queue; `isAuditor` is false when the server answers that the caller is no auditor (4405), so the
 * review tab stays hidden.
 */
export function useReviewQueue() {
  const query = useQuery({
    queryKey: [CERT_API.review],
    queryFn: () => api.get<TCertReviewItem[]>(CERT_API.review, { handledCodes: [ERRORS.CERT_NOT_AUDITOR.code] }),
    retry: false,
  });
  const notAuditor = query.error instanceof ApiError && query.error.code === ERRORS.CERT_NOT_AUDITOR.code;
  return { ...query, isAuditor: query.isSuccess || (!notAuditor && query.isError) };
}

export function useCandidates(source: 'class' | 'course' | 'schedule', sourceId: string | undefined) {
  return useQuery({
    queryKey: [CERT_API.candidates, source, sourceId],
    queryFn: () => api.get<TCertCandidate[]>(CERT_API.candidates, { query: { source, sourceId } }),
    enabled: Boolean(sourceId),
  });
}

export function useAuditors(enabled: boolean) {
  return useQuery({
    queryKey: [CERT_API.auditor],
    queryFn: () => api.get<TCertAuditor[]>(CERT_API.auditor),
    enabled,
  });
}

export function useCertSettings(enabled: boolean) {
  return useQuery({
    queryKey: [CERT_API.auditorSettings],
    queryFn: () => api.get<TCertSettings>(CERT_API.auditorSettings),
    enabled,
  });
}

export function useMyCerts() {
  return useQuery({ queryKey: [CERT_API.myCerts], queryFn: () => api.get<TUserCert[]>(CERT_API.myCerts) });
}

/** A certificate's picture `width` pixels wide, drawn by the server from its PDF: a card's preview without pdf.js. */
export function useCertPng(userCertId: string, width: number) {
  return useQuery({
    queryKey: [CERT_API.png, userCertId, width],
    queryFn: () => api.download(CERT_API.png, { query: { userCertId, width }, quiet: true }),
    staleTime: Infinity,
  });
}

/** A change to issuances or certificates that says so once done and refreshes the lists. */
export function useIssuingMutation<TInput, TResult = unknown>(
  run: (input: TInput) => Promise<TResult>,
  done: string | ((result: TResult) => string),
  extraKeys: readonly string[] = [],
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async (result) => {
      toast.success(typeof done === 'string' ? done : done(result));
      await Promise.all([...ISSUING_KEYS, ...extraKeys].map((key) => client.invalidateQueries({ queryKey: [key] })));
    },
  });
}

export const certCalls = {
  create: (body: TCreateCertIssuance) => api.post<TCertIssuanceDetail>(CERT_API.certIss, body),
  /** A refused issuance corrected: everything but its template. */
  resubmit: ({ certIssId, certId: _template, ...body }: TCreateCertIssuance & { certIssId: string }) =>
    api.put<TCertIssuanceDetail>(CERT_API.certIssResubmit, body, { query: { certIssId } }),
  withdraw: (reviewId: string) => api.delete(CERT_API.review, { query: { reviewId } }),
  decide: (decision: TCertReviewDecision) => api.post(CERT_API.review, decision),
  revoke: ({ userCertId, reason }: { userCertId: string; reason: string }) =>
    api.put(CERT_API.revoke, { reason }, { query: { userCertId } }),
  reissue: ({ userCertId, ...body }: TReissueRequest & { userCertId: string }) =>
    api.put<TUserCert>(CERT_API.reissue, body, { query: { userCertId } }),
  addAuditor: (userId: string) => api.post<TCertAuditor>(CERT_API.auditor, { userId }),
  removeAuditor: (a: TCertAuditor) => api.delete(CERT_API.auditor, { query: { auditorId: a.id, userId: a.userId } }),
  saveSettings: (body: TCertSettings) => api.put<TCertSettings>(CERT_API.auditorSettings, body),
  uploadList: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<TCertUserListResult>(CERT_API.uploadUserTemplate, form, { query: { fileType: 'xlsx' } });
  },
  verify: (number: string) =>
    api.get<TCertVerification>(CERT_API.verify, {
      query: { number },
      handledCodes: [ERRORS.CERTIFICATE_NOT_FOUND.code, ERRORS.CERT_NUMBER_REQUIRED.code],
    }),
  verifyCredential: (credential: string) =>
    api.post<TCredentialVerification>(CERT_API.verifyCredential, { credential }),
};

/** Saves a holder's certificate as a PDF file named by its number. */
export async function downloadCertPdf(cert: Pick<TUserCert, 'id' | 'number'>) {
  saveFile(await api.download(CERT_API.pdf, { query: { userCertId: cert.id } }), `${cert.number ?? cert.id}.pdf`);
}

/** Saves a holder's Open Badges 3.0 credential. */
/** The certificate as a picture to keep or share (the server's default width). */
export async function downloadCertPng(cert: Pick<TUserCert, 'id' | 'number'>) {
  saveFile(await api.download(CERT_API.png, { query: { userCertId: cert.id } }), `${cert.number ?? cert.id}.png`);
}

export async function downloadBadge(cert: Pick<TUserCert, 'id' | 'number'>) {
  saveFile(await api.download(CERT_API.badge, { query: { userCertId: cert.id } }), `${cert.number ?? cert.id}.jwt`);
}

/** Saves every certificate of an issued issuance as one PDF. */
export async function downloadIssuance(certIssId: string, name: string) {
  const blob = await api.download(CERT_API.certIssDownload, { method: 'POST', body: { certIssId } });
  saveFile(blob, `${name}.pdf`);
}

export async function downloadListTemplate() {
  saveFile(await api.download(CERT_API.userTemplate), `${i18n.t('certificate:form.listFileName')}.xlsx`);
}

/** The public address of a certificate's verification, as its QR code holds it. */
export function verifyLink(number: string): string {
  return `${window.location.origin}/pjedu/certificate-search?number=${encodeURIComponent(number)}`;
}
