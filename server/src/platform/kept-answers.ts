import { LRUCache } from 'lru-cache';
import type { ClusterTopic, RedisCluster } from './cluster.js';

/**
 * Answers a process keeps for data that every visitor reads and that changes rarely (an institution's home page):
 * kept for `ttlMs` at most, dropped at once by a write on this process (`forget`) and, through Redis, on every other
 * process of the deployment. Requests for an answer not yet kept share one load; a failed load is not kept. A load
 * still in flight when `forget` is called is not kept either, so an answer read before a write never outlives it.
 */
export class KeptAnswers<T extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, Promise<T>>;

  constructor(
    private readonly cluster: RedisCluster | null,
    private readonly topic: ClusterTopic,
    options: { max: number; ttlMs: number },
  ) {
    this.entries = new LRUCache({ max: options.max, ttl: options.ttlMs });
    cluster?.subscribe(topic, () => this.entries.clear());
  }

  get(key: string, load: () => Promise<T>): Promise<T> {
    const kept = this.entries.get(key);
    if (kept) return kept;
    const loading = load();
    this.entries.set(key, loading);
    loading.catch(() => {
      if (this.entries.get(key) === loading) this.entries.delete(key);
    });
    return loading;
  }

  /** Drops every kept answer here and tells the other processes to drop theirs. */
  async forget(): Promise<void> {
    this.entries.clear();
    await this.cluster?.publish(this.topic, null);
  }
}
