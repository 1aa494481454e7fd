import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, lt, ne } from 'drizzle-orm';
import type { AppContext } from './context.js';
import { serverInstances } from './db/schema/index.js';

const HEARTBEAT_MS = 10_000;
/** A process that has not written its heartbeat for this long is gone. */
const SILENT_MS = 45_000;
/** How long a signed call between processes stays valid. */
const CALL_WINDOW_MS = 60_000;

/** Signs a call one process makes to another (`<issued ms>.<HMAC>`). */
export const INSTANCE_SIGNATURE_HEADER = 'x-aiedu-instance-signature';

/**
 * This server process among the ones serving the same database (`server_instances`): its id, the address the others
 * reach it at, and a heartbeat every 10 s. Runtimes record the process that runs them (`runtimes.holder`), and the
 * gateway of any other process forwards their traffic to that address. Calls between processes are signed with a key
 * derived from the access tokens' secret, which every process of a deployment already shares.
 */
export class ServerInstance {
  readonly id = randomUUID();
  private url: string;
  private timer: NodeJS.Timeout | null = null;
  private startedAt = new Date(0);
  private readonly key: Buffer;

  constructor(
    private readonly ctx: AppContext,
    secret: string,
  ) {
    this.url = ctx.config.instanceUrl ?? `http://127.0.0.1:${ctx.config.port}`;
    this.key = createHmac('sha256', secret).update('aiedu server instance calls').digest();
  }

  get address(): string {
    return this.url;
  }

  /** Heartbeats written after this moment are of processes still running. */
  beatingSince(): Date {
    return new Date(this.ctx.now().getTime() - SILENT_MS);
  }

  /** Records this process, and beats every 10 s until `close`. */
  async register(): Promise<void> {
    this.startedAt = this.ctx.now();
    await this.beat();
    this.timer = setInterval(() => void this.beat().catch(() => undefined), HEARTBEAT_MS);
    this.timer.unref();
  }

  /** Writes the heartbeat (the row again, if another process forgot it while this one could not reach the database). */
  async beat(): Promise<void> {
    const now = this.ctx.now();
    await this.ctx.db
      .insert(serverInstances)
      .values({ id: this.id, url: this.url, startedAt: this.startedAt, heartbeatAt: now })
      .onConflictDoUpdate({ target: serverInstances.id, set: { heartbeatAt: now, url: this.url } });
  }

  /** No more heartbeats: the others take this process for gone 45 s after the last one. */
  stopBeating(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * The process listens on `port`: without a configured address, the others reach it on loopback at that port. A
   * process recorded at the same address is one this one replaced (nothing else can listen there), so it is
   * forgotten at once rather than after 45 s of silence; its ids are answered.
   */
  async listening(port: number): Promise<string[]> {
    if (!this.ctx.config.instanceUrl) this.url = `http://127.0.0.1:${port}`;
    await this.beat();
    const replaced = await this.ctx.db
      .delete(serverInstances)
      .where(and(eq(serverInstances.url, this.url), ne(serverInstances.id, this.id)))
      .returning({ id: serverInstances.id });
    return replaced.map((row) => row.id);
  }

  /** The address of a process that is still beating, or null. */
  async addressOf(id: string): Promise<string | null> {
    const [row] = await this.ctx.db
      .select({ url: serverInstances.url })
      .from(serverInstances)
      .where(and(eq(serverInstances.id, id), gt(serverInstances.heartbeatAt, this.beatingSince())));
    return row?.url ?? null;
  }

  /** Forgets processes silent for a day (their runtimes were released long before). */
  async forgetSilent(): Promise<void> {
    await this.ctx.db
      .delete(serverInstances)
      .where(lt(serverInstances.heartbeatAt, new Date(this.ctx.now().getTime() - 86_400_000)));
  }

  /**
   * The process stops: its row goes, so nothing is forwarded to it any more. Without a database to tell, the others
   * take it for gone once its heartbeat is 45 s old.
   */
  async close(): Promise<void> {
    this.stopBeating();
    await this.ctx.db
      .delete(serverInstances)
      .where(eq(serverInstances.id, this.id))
      .catch(() => undefined);
  }

  /** The signature header of a call to another process about `subject` (e.g. `stop:<project>:<reason>`). */
  sign(subject: string): string {
    const issued = Date.now();
    return `${issued}.${this.mac(`${issued}:${subject}`)}`;
  }

  /** Whether a call about `subject` was signed by a process of this deployment within the last minute. */
  verify(subject: string, signature: string | undefined): boolean {
    const [issuedText, mac] = (signature ?? '').split('.');
    const issued = Number(issuedText);
    if (!mac || !Number.isFinite(issued) || Math.abs(Date.now() - issued) > CALL_WINDOW_MS) return false;
    const expected = Buffer.from(this.mac(`${issued}:${subject}`));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private mac(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }
}
