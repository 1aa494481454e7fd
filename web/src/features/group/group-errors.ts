import { ApiError } from '../../app/api-client';

/** The `data` of a refusal (a batch's bad rows travel there), when the server sent one. */
export function refusalData<T>(error: unknown): T | undefined {
  return error instanceof ApiError && typeof error.body === 'object'
    ? ((error.body.data as T) ?? undefined)
    : undefined;
}
