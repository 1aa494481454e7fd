import { EventEmitter } from 'node:events';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { readSheetRows } from './sheet.js';
import { PARSES_AT_ONCE, parseQueue, whileConnected } from './worker.js';

/** A request whose connection the test closes. */
const requestOn = (socket: EventEmitter) => ({ raw: { socket } }) as unknown as FastifyRequest;

describe('a parse while its client is connected', () => {
  it('is aborted when the client goes away', async () => {
    const socket = new EventEmitter();
    const aborted = whileConnected(requestOn(socket), (signal) => {
      socket.emit('close');
      return Promise.resolve(signal.aborted);
    });
    expect(await aborted).toBe(true);
  });

  it('leaves nothing on a connection kept open for the next request', async () => {
    const socket = new EventEmitter();
    for (let i = 0; i < 20; i++) {
      expect(await whileConnected(requestOn(socket), (signal) => Promise.resolve(signal.aborted))).toBe(false);
    }
    await expect(whileConnected(requestOn(socket), () => Promise.reject(new Error('refused')))).rejects.toThrow();
    expect(socket.listenerCount('close')).toBe(0);
  });
});

describe('parses at once', () => {
  it('runs one per core and queues the rest', async () => {
    const csv = Buffer.from('Username\nkid01\n');
    const zip = { maxEntries: 1, maxEntryBytes: 1, maxTotalBytes: 1, maxRatio: 1 };
    const limits = { maxRows: 10, zip, heapMb: 64, timeoutMs: 60_000 };
    const reads = Array.from({ length: PARSES_AT_ONCE + 1 }, () => readSheetRows(csv, 'csv', limits));
    while (parseQueue().running < PARSES_AT_ONCE) await new Promise((resolve) => setImmediate(resolve));
    expect(parseQueue()).toEqual({ running: PARSES_AT_ONCE, waiting: 1 });
    for (const rows of await Promise.all(reads)) expect(rows).toHaveLength(2);
  });
});
