import { ERRORS, type ErrorEntry, type ErrorName } from '@aiedu/contracts';

/**
 * The one error type of the API. Throw it from anywhere; the error handler turns it into the envelope
 * with the catalogue's HTTP status and the message in the request's language.
 */
export class AppError extends Error {
  readonly entry: ErrorEntry;

  constructor(
    name: ErrorName,
    /** Extra data for the client (sent as `data`), never secrets. */
    readonly details?: unknown,
  ) {
    super(name);
    this.name = 'AppError';
    this.entry = ERRORS[name];
  }

  get code(): string {
    return this.entry.code;
  }

  get status(): number {
    return this.entry.status;
  }
}
