import { CONTAINER_TYPES, type ContainerType } from '@aiedu/contracts';

/** What the pool holds: anything that can be started ahead, checked alive, and stopped. */
export interface PoolItem {
  runtimeType: ContainerType;
  exited: Promise<void>;
}

export interface WarmPoolOptions<T extends PoolItem> {
  /** How many started items each runtime type keeps ready. */
  sizes: Record<ContainerType, number>;
  launch(runtimeType: ContainerType): Promise<T>;
  alive(item: T): boolean;
  kill(item: T): Promise<void>;
  log: { warn(o: object, m: string): void };
  /** First wait after a failed launch; doubles up to 5 minutes. */
  retryMs?: number;
}

const MAX_RETRY_MS = 5 * 60_000;

/**
 * Items (Jupyter servers) started ahead per runtime type, so a start takes one instead of waiting for a process.
 * Refills in the background one launch at a time (two cores: a refill must not compete with itself), after a
 * take, after an idle item died, and after a failed launch with a growing pause.
 */
export class WarmPool<T extends PoolItem> {
  private readonly ready = new Map<ContainerType, T[]>(CONTAINER_TYPES.map((t) => [t, []]));
  private filling: Promise<void> | null = null;
  private retryMs: number;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly options: WarmPoolOptions<T>) {
    this.retryMs = options.retryMs ?? 5000;
  }

  get size(): number {
    return Object.values(this.options.sizes).reduce((a, b) => a + b, 0);
  }

  /** Ready items per runtime type (for the log and the tests). */
  counts(): Record<ContainerType, number> {
    return Object.fromEntries(CONTAINER_TYPES.map((t) => [t, this.ready.get(t)!.length])) as Record<
      ContainerType,
      number
    >;
  }

  /** A ready item of the type, or null when none is; either way a refill follows. */
  take(runtimeType: ContainerType): T | null {
    const list = this.ready.get(runtimeType)!;
    let item: T | null = null;
    while (list.length && !item) {
      const candidate = list.shift()!;
      if (this.options.alive(candidate)) item = candidate;
    }
    this.fill();
    return item;
  }

  private deficit(): ContainerType | null {
    return CONTAINER_TYPES.find((t) => this.ready.get(t)!.length < this.options.sizes[t]) ?? null;
  }

  /** Starts what is missing, in the background; answers the running refill. */
  fill(): Promise<void> {
    if (this.closed || this.retryTimer || this.size === 0) return Promise.resolve();
    this.filling ??= this.refill().finally(() => (this.filling = null));
    return this.filling;
  }

  private async refill() {
    for (let type = this.deficit(); type && !this.closed; type = this.deficit()) {
      let item: T;
      try {
        item = await this.options.launch(type);
      } catch (error) {
        this.options.log.warn({ runtimeType: type, error: (error as Error).message }, 'warm pool: launch failed');
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          void this.fill();
        }, this.retryMs);
        this.retryTimer.unref();
        this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
        return;
      }
      if (this.closed) {
        await this.options.kill(item);
        return;
      }
      this.retryMs = this.options.retryMs ?? 5000;
      this.ready.get(type)!.push(item);
      void item.exited.then(() => this.dropDead(item));
    }
  }

  /** An idle item that ended (killed, crashed) leaves the pool and is replaced. */
  private dropDead(item: T) {
    const list = this.ready.get(item.runtimeType)!;
    const index = list.indexOf(item);
    if (index < 0) return;
    list.splice(index, 1);
    this.fill();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const idle = [...this.ready.values()].flat();
    for (const list of this.ready.values()) list.length = 0;
    await Promise.all(idle.map((item) => this.options.kill(item)));
    await this.filling;
  }
}
