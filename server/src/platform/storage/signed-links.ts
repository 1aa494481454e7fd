import { createHmac, timingSafeEqual } from 'node:crypto';
import { API } from '@aiedu/contracts';
import { AppError } from '../errors.js';
import { isValidKey, type SignedQuery, type SignedUrlOptions } from './storage.js';

/**
 * Time-limited download links to a stored file, signed with the deployment's file-URL secret. Every storage
 * answers them through the server's own download route, so links look and check the same wherever the bytes live.
 */
export class SignedLinks {
  constructor(
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  url(key: string, { expiresInSeconds, fileName, attachment = false }: SignedUrlOptions) {
    if (!isValidKey(key)) throw new AppError('INVALID_REQUEST');
    const expires = String(Math.floor(this.now() / 1000) + expiresInSeconds);
    const params = new URLSearchParams({ key, expires });
    if (fileName) params.set('name', fileName);
    if (attachment) params.set('dl', '1');
    params.set('sig', this.sign(key, expires, fileName, attachment));
    return `${API.fileDownload}?${params.toString()}`;
  }

  /** The key of a valid, unexpired link; otherwise null. */
  verify({ key, expires, sig, name, dl }: SignedQuery) {
    if (!isValidKey(key) || !/^\d+$/.test(expires)) return null;
    if (Number(expires) < Math.floor(this.now() / 1000)) return null;
    const expected = Buffer.from(this.sign(key, expires, name, dl === '1'));
    const given = Buffer.from(sig);
    return expected.length === given.length && timingSafeEqual(expected, given) ? key : null;
  }

  private sign(key: string, expires: string, name: string | undefined, attachment: boolean) {
    return createHmac('sha256', this.secret)
      .update(`${key}\n${expires}\n${name ?? ''}${attachment ? '\nattachment' : ''}`)
      .digest('base64url');
  }
}
