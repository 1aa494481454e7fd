import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** What the processes of a deployment tell each other. */
export type ClusterTopic =
  | 'sessions-ended'
  | 'shield-block'
  | 'course-centre-changed'
  | 'classroom'
  | 'institution-home-changed'
  | 'customer-tree-changed';
const TOPICS: readonly ClusterTopic[] = [
  'sessions-ended',
  'shield-block',
  'course-centre-changed',
  'classroom',
  'institution-home-changed',
  'customer-tree-changed',
];

/**
 * The other server processes of the deployment, through Redis (`REDIS_URL`): messages to all of them (pub/sub), and
 * counts and blocks they share (keys under `REDIS_KEY_PREFIX`). Without Redis a process is on its own, which is
 * all a single process needs: `cluster` is then null and every caller keeps its own state in memory.
 */
export class RedisCluster {
  /** This process, so its own messages are not handled twice. */
  private readonly origin = randomUUID();
  private readonly commands: Redis;
  private readonly subscriber: Redis;
  private readonly handlers = new Map<ClusterTopic, Set<(message: unknown) => void>>();

  private constructor(
    url: string,
    readonly prefix: string,
  ) {
    // While Redis is away a command fails at once (nothing queues behind a sign-in), and the caller goes on alone;
    // the client reconnects, subscriptions included, by itself.
    const options = { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false };
    this.commands = new Redis(url, options);
    this.subscriber = new Redis(url, options);
    // Errors are retried by the client; a process without Redis for a while keeps working on its own.
    this.commands.on('error', () => undefined);
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', (channel: string, text: string) => this.receive(channel, text));
  }

  /** Connects and subscribes; fails when Redis cannot be reached, so a misconfigured start says so. */
  static async connect(url: string, prefix: string): Promise<RedisCluster> {
    const cluster = new RedisCluster(url, prefix);
    try {
      await cluster.commands.connect();
      await cluster.subscriber.connect();
      await cluster.subscriber.subscribe(...TOPICS.map((t) => cluster.channel(t)));
    } catch (error) {
      await cluster.close();
      const where = new URL(url);
      where.password = '';
      throw new Error(`Redis at ${where.host} (REDIS_URL) could not be reached: ${(error as Error).message}`);
    }
    return cluster;
  }

  private channel(topic: ClusterTopic) {
    return `${this.prefix}${topic}`;
  }

  private receive(channel: string, text: string) {
    const topic = channel.slice(this.prefix.length) as ClusterTopic;
    let envelope: { origin?: string; message?: unknown };
    try {
      envelope = JSON.parse(text) as typeof envelope;
    } catch {
      return;
    }
    if (envelope.origin === this.origin) return;
    for (const handler of this.handlers.get(topic) ?? []) handler(envelope.message);
  }

  /** Tells the other processes; never fails the caller (a process cut off from Redis goes on alone). */
  async publish(topic: ClusterTopic, message: unknown): Promise<void> {
    await this.commands
      .publish(this.channel(topic), JSON.stringify({ origin: this.origin, message }))
      .catch(() => undefined);
  }

  /** Handles what the other processes publish on `topic`; answers the function that stops it. */
  subscribe(topic: ClusterTopic, handler: (message: unknown) => void): () => void {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  /**
   * Records one event of `key` at `now` (ms) in a window of `windowMs` shared by every process, and answers how many
   * fell within it.
   */
  async hit(key: string, now: number, windowMs: number): Promise<number> {
    const full = `${this.prefix}${key}`;
    const results = await this.commands
      .multi()
      .zremrangebyscore(full, '-inf', now - windowMs)
      .zadd(full, now, `${now}:${randomUUID()}`)
      .zcard(full)
      .pexpire(full, windowMs)
      .exec();
    const count = results?.[2]?.[1];
    return typeof count === 'number' ? count : 0;
  }

  /** Sets `key` to `value` until `until` (ms since the epoch). */
  async setUntil(key: string, value: string, until: number, now: number): Promise<void> {
    const ttl = Math.max(1, Math.ceil(until - now));
    await this.commands.set(`${this.prefix}${key}`, value, 'PX', ttl);
  }

  /** Every key under `pattern` (after the prefix) with its value: what other processes set before this one started. */
  async values(pattern: string): Promise<[string, string][]> {
    const found: [string, string][] = [];
    let cursor = '0';
    do {
      const match = `${this.prefix.replace(/[*?[\]\\]/g, '\\$&')}${pattern}`;
      const [next, keys] = await this.commands.scan(cursor, 'MATCH', match, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) {
        const values = await this.commands.mget(...keys);
        keys.forEach((key, i) => {
          const value = values[i];
          if (value != null) found.push([key.slice(this.prefix.length), value]);
        });
      }
    } while (cursor !== '0');
    return found;
  }

  /** Sets fields of the hash `key`, which expires `ttlMs` after its last write. */
  async putFields(key: string, fields: Record<string, string>, ttlMs: number): Promise<void> {
    const full = `${this.prefix}${key}`;
    await this.commands.multi().hset(full, fields).pexpire(full, ttlMs).exec();
  }

  async dropFields(key: string, fields: string[]): Promise<void> {
    if (fields.length > 0) await this.commands.hdel(`${this.prefix}${key}`, ...fields);
  }

  /** Every field of the hash `key` with its value. */
  async fields(key: string): Promise<Record<string, string>> {
    return this.commands.hgetall(`${this.prefix}${key}`);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.subscriber.disconnect();
    this.commands.disconnect();
  }
}
