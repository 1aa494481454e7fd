/**
 * Follows the bytes of one direction of an upgraded connection (the server's HTTP answer, then WebSocket frames)
 * just far enough to know where a frame ends, so the gateway can add a close frame of its own between two frames
 * without ever parsing or copying a payload.
 */
export class FrameBoundary {
  private headEnded: boolean;
  private headTail = '';
  private header: number[] = [];
  private payloadLeft = 0;

  /** `httpHead`: the bytes start with the server's HTTP answer (the browser's side starts with frames). */
  constructor(options: { httpHead: boolean } = { httpHead: true }) {
    this.headEnded = !options.httpHead;
  }

  /** The server's HTTP answer has passed: frames follow. */
  get upgraded(): boolean {
    return this.headEnded;
  }

  /** True between frames: a frame written now would not split one of the server's. */
  get atBoundary(): boolean {
    return this.headEnded && this.header.length === 0 && this.payloadLeft === 0;
  }

  /**
   * Consumes `chunk` from `offset` up to the end of the current frame (or of the HTTP answer, or of the chunk) and
   * answers the offset reached.
   */
  step(chunk: Buffer, offset: number): number {
    if (!this.headEnded) {
      const text = this.headTail + chunk.toString('latin1', offset);
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) {
        this.headTail = text.slice(-3);
        return chunk.length;
      }
      this.headEnded = true;
      return offset + (end + 4 - this.headTail.length);
    }
    if (this.payloadLeft > 0) {
      const taken = Math.min(this.payloadLeft, chunk.length - offset);
      this.payloadLeft -= taken;
      return offset + taken;
    }
    while (offset < chunk.length) {
      this.header.push(chunk[offset++]!);
      const needed = headerLength(this.header);
      if (needed !== null && this.header.length === needed) {
        this.payloadLeft = payloadLength(this.header);
        this.header = [];
        return offset;
      }
    }
    return offset;
  }

  /** Consumes a whole chunk. */
  consume(chunk: Buffer): void {
    for (let offset = 0; offset < chunk.length;) offset = this.step(chunk, offset);
  }

  /** The bytes of `chunk` up to the first point between two frames, or null when the chunk ends inside a frame. */
  untilBoundary(chunk: Buffer): number | null {
    if (this.atBoundary) return 0;
    for (let offset = 0; offset < chunk.length;) {
      offset = this.step(chunk, offset);
      if (this.atBoundary) {
        // What follows the boundary is never sent, so it need not be followed.
        return offset;
      }
    }
    return null;
  }
}

function headerLength(header: number[]): number | null {
  if (header.length < 2) return null;
  const length7 = header[1]! & 0x7f;
  const masked = (header[1]! & 0x80) !== 0;
  return 2 + (length7 === 126 ? 2 : length7 === 127 ? 8 : 0) + (masked ? 4 : 0);
}

function payloadLength(header: number[]): number {
  const length7 = header[1]! & 0x7f;
  if (length7 < 126) return length7;
  const bytes = header.slice(2, length7 === 126 ? 4 : 10);
  return bytes.reduce((total, byte) => total * 256 + byte, 0);
}

/**
 * The complete data frames (text, binary, continuation) at the start of `bytes`, as they were: control frames
 * (close, ping, pong) and an unfinished last frame are left out.
 */
export function dataFrames(bytes: Buffer): Buffer {
  const kept: Buffer[] = [];
  let offset = 0;
  while (offset + 2 <= bytes.length) {
    const header = [...bytes.subarray(offset, offset + 14)];
    const length = headerLength(header);
    if (length === null || offset + length > bytes.length) break;
    const end = offset + length + payloadLength(header.slice(0, length));
    if (end > bytes.length) break;
    if ((bytes[offset]! & 0x08) === 0) kept.push(bytes.subarray(offset, end));
    offset = end;
  }
  return Buffer.concat(kept);
}

/**
 * A close frame with a status code and a short reason: unmasked as a server sends it, or masked (as a client must)
 * to ask the server to close.
 */
export function closeFrame(code: number, reason: string, mask?: Buffer): Buffer {
  const payload = Buffer.concat([Buffer.from([code >> 8, code & 0xff]), Buffer.from(reason.slice(0, 100), 'utf8')]);
  if (!mask) return Buffer.concat([Buffer.from([0x88, payload.length]), payload]);
  const masked = payload.map((byte, i) => byte ^ mask[i % 4]!);
  return Buffer.concat([Buffer.from([0x88, 0x80 | payload.length]), mask, masked]);
}

/** A whole unmasked text frame, as a server sends it (the gateway's own notices to the browser). */
export function textFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const long = payload.length >= 126;
  const length = Buffer.alloc(!long ? 1 : payload.length < 0x10000 ? 3 : 9);
  if (!long) length[0] = payload.length;
  else if (length.length === 3) {
    length[0] = 126;
    length.writeUInt16BE(payload.length, 1);
  } else {
    length[0] = 127;
    length.writeBigUInt64BE(BigInt(payload.length), 1);
  }
  return Buffer.concat([Buffer.from([0x81]), length, payload]);
}
