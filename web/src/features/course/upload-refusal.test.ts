import { DetailedError } from 'tus-js-client';
import { describe, expect, it } from 'vitest';
import { refusalOf, shouldRetry } from './upload-refusal';

/** A failed tus request as tus-js-client reports it: the answer's status and body, or none at all. */
function failed(status: number | null, body = ''): DetailedError {
  const error = new DetailedError('tus: unexpected response while creating upload');
  error.originalResponse =
    status === null
      ? null
      : {
          getStatus: () => status,
          getHeader: () => undefined,
          getBody: () => body,
          getUnderlyingObject: () => null,
        };
  return error;
}

const envelope = (errorCode: string, data: unknown = null) => JSON.stringify({ errorCode, errorMsg: 'refused', data });

describe('a refused resource upload', () => {
  it("reads the platform's refusal, and nothing from tus's own answers or a dropped connection", () => {
    expect(refusalOf(failed(507, envelope('2003', { disk: 'server', freeMb: 900 })))).toEqual({
      errorCode: '2003',
      errorMsg: 'refused',
      data: { disk: 'server', freeMb: 900 },
    });
    expect(refusalOf(failed(409, 'Upload-Offset conflict'))).toBeNull();
    expect(refusalOf(failed(null))).toBeNull();
    expect(refusalOf(new Error('offline'))).toBeNull();
  });

  it('is not tried again when the platform refused it, but is after a dropped connection or a server error', () => {
    expect(shouldRetry(failed(507, envelope('2003', { disk: 'server' })))).toBe(false);
    expect(shouldRetry(failed(409, envelope('4104')))).toBe(false);
    expect(shouldRetry(failed(413, envelope('2006')))).toBe(false);
    expect(shouldRetry(failed(null))).toBe(true);
    expect(shouldRetry(failed(502, 'Bad Gateway'))).toBe(true);
    expect(shouldRetry(failed(409, 'Upload-Offset conflict'))).toBe(true);
    expect(shouldRetry(failed(423, ''))).toBe(true);
    expect(shouldRetry(failed(404, 'Not found'))).toBe(false);
  });
});
