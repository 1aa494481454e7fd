import { describe, expect, it } from 'vitest';
import { closeFrame, dataFrames, FrameBoundary, textFrame } from './ws-frames.js';

const HEAD = Buffer.from('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n', 'latin1');
/** A server's (unmasked) text frame with a payload of `size` bytes. */
function frame(size: number): Buffer {
  const header =
    size < 126
      ? Buffer.from([0x81, size])
      : size < 65536
        ? Buffer.from([0x81, 126, size >> 8, size & 0xff])
        : Buffer.concat([Buffer.from([0x81, 127]), Buffer.from(new BigUint64Array([BigInt(size)]).buffer).reverse()]);
  return Buffer.concat([header, Buffer.alloc(size, 0x61)]);
}

describe('FrameBoundary', () => {
  it('is between frames only after the HTTP answer and after each whole frame', () => {
    const frames = new FrameBoundary();
    expect(frames.atBoundary).toBe(false);
    frames.consume(HEAD);
    expect(frames.atBoundary).toBe(true);
    const big = frame(70_000);
    frames.consume(big.subarray(0, 3));
    expect(frames.atBoundary).toBe(false);
    frames.consume(big.subarray(3, 40_000));
    expect(frames.atBoundary).toBe(false);
    frames.consume(big.subarray(40_000));
    expect(frames.atBoundary).toBe(true);
  });

  it('follows an HTTP answer and frames split anywhere across chunks', () => {
    const stream = Buffer.concat([HEAD, frame(5), frame(300), frame(0), frame(66_000), frame(1)]);
    for (const cut of [1, 7, HEAD.length - 2, HEAD.length + 1, HEAD.length + 8, 400, 66_100]) {
      const frames = new FrameBoundary();
      frames.consume(stream.subarray(0, cut));
      frames.consume(stream.subarray(cut));
      expect(frames.atBoundary).toBe(true);
    }
  });

  it('finds where the frame in progress ends, so a close frame can follow it', () => {
    const frames = new FrameBoundary();
    frames.consume(HEAD);
    const first = frame(200);
    frames.consume(first.subarray(0, 50));
    const rest = Buffer.concat([first.subarray(50), frame(10)]);
    expect(frames.untilBoundary(rest)).toBe(first.length - 50);
    expect(frames.untilBoundary(Buffer.alloc(0))).toBe(0);
    const frames2 = new FrameBoundary();
    frames2.consume(HEAD);
    frames2.consume(first.subarray(0, 10));
    expect(frames2.untilBoundary(first.subarray(10, 100))).toBeNull();
    expect(frames2.untilBoundary(first.subarray(100))).toBe(first.length - 100);
  });

  it('writes whole unmasked text frames that a frame reader follows to their end', () => {
    expect([...textFrame('hi')]).toEqual([0x81, 2, ...Buffer.from('hi')]);
    for (const size of [125, 126, 300, 70_000]) {
      const frame = textFrame('x'.repeat(size));
      const frames = new FrameBoundary({ httpHead: false });
      frames.consume(frame.subarray(0, -1));
      expect(frames.atBoundary).toBe(false);
      frames.consume(frame.subarray(-1));
      expect(frames.atBoundary).toBe(true);
      expect(frame.subarray(-size).toString()).toBe('x'.repeat(size));
    }
  });

  it('writes a close frame with the code and reason', () => {
    expect([...closeFrame(4401, 'token expired')]).toEqual([0x88, 15, 0x11, 0x31, ...Buffer.from('token expired')]);
  });
  it('follows the masked frames of a browser, which come without an HTTP answer', () => {
    const frames = new FrameBoundary({ httpHead: false });
    expect(frames.atBoundary).toBe(true);
    const masked = Buffer.concat([Buffer.from([0x81, 0x80 | 3, 1, 2, 3, 4]), Buffer.from('abc')]);
    frames.consume(masked.subarray(0, 5));
    expect(frames.atBoundary).toBe(false);
    expect(frames.untilBoundary(Buffer.concat([masked.subarray(5), masked]))).toBe(masked.length - 5);
  });

  it('masks a close frame sent to the server', () => {
    const mask = Buffer.from([1, 2, 3, 4]);
    const frame = closeFrame(4403, 'no', mask);
    expect([...frame.subarray(0, 6)]).toEqual([0x88, 0x80 | 4, 1, 2, 3, 4]);
    const payload = Buffer.from(frame.subarray(6).map((byte, i) => byte ^ mask[i % 4]!));
    expect(payload.readUInt16BE(0)).toBe(4403);
    expect(payload.subarray(2).toString()).toBe('no');
  });
  it('keeps the complete data frames a browser sent, without its close, pings or an unfinished frame', () => {
    const text = Buffer.concat([Buffer.from([0x81, 0x80 | 3, 1, 2, 3, 4]), Buffer.from('abc')]);
    const ping = Buffer.from([0x89, 0x80, 1, 2, 3, 4]);
    const close = closeFrame(1000, '', Buffer.from([5, 6, 7, 8]));
    const cut = text.subarray(0, 7);
    expect(dataFrames(Buffer.concat([text, ping, text, close, cut]))).toEqual(Buffer.concat([text, text]));
  });
});
