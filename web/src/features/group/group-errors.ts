import { ApiError } from '../../app/api-client';

/**
 * The server's words for a refusal the API client left to the form (a 400, or a code the call handles itself), so
 * the form shows it beside its fields; other refusals were already shown as a toast and give nothing here.
 */
export function refusalMessage(error: unknown, handledCodes: readonly string[] = []): string | undefined {
  if (!(error instanceof ApiError) || typeof error.body !== 'object') return undefined;
  if (error.status !== 400 && !handledCodes.includes(error.body.errorCode)) return undefined;
  return error.body.errorMsg || undefined;
}

/** The `data` of a refusal (a batch's bad rows travel there), when the server sent one. */
export function refusalData<T>(error: unknown): T | undefined {
  return error instanceof ApiError && typeof error.body === 'object'
    ? ((error.body.data as T) ?? undefined)
    : undefined;
}
