import type { DetailedError } from 'tus-js-client';

export interface UploadRefusal {
  errorCode: string;
  errorMsg: string;
  data?: unknown;
}

/** The platform's refusal in a failed tus request (its envelope), or null for a dropped connection or tus's own. */
export function refusalOf(error: Error | DetailedError): UploadRefusal | null {
  const body = 'originalResponse' in error ? error.originalResponse?.getBody() : undefined;
  try {
    const parsed = body ? (JSON.parse(body) as Partial<UploadRefusal>) : null;
    return typeof parsed?.errorCode === 'string' ? (parsed as UploadRefusal) : null;
  } catch {
    return null;
  }
}

/**
 * The platform's refusals (a full section, a published course, a full disk) are final. Otherwise as tus-js-client
 * does: a dropped connection, a server error, a locked upload (423) or an offset conflict (409) is tried again,
 * tus's other 4xx answers are not.
 */
export function shouldRetry(error: DetailedError): boolean {
  if (refusalOf(error)) return false;
  const status = error.originalResponse?.getStatus() ?? 0;
  return status === 409 || status === 423 || !(status >= 400 && status < 500);
}
