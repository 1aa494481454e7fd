import { createHash, timingSafeEqual } from 'node:crypto';
import { desc, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from './db/client.js';
import { scheduledBackups } from './db/schema/index.js';

export const METRICS_PATH = '/metrics';

/** What the gauges read when Prometheus scrapes: this process's runtimes, its database pool. */
export interface MetricSources {
  db: Db;
  runtimes: {
    runningHere(): number;
    startingHere(): number;
    /** The local runtimes' disk: free bytes and the floor (null with runtimes in pods). */
    disk: { measure(): Promise<{ freeBytes: number; floorBytes: number }> } | null;
  };
  pool?: () => { total: number; idle: number; waiting: number } | null;
}

/**
 * Prometheus metrics of this process (`prom-client`), served at `/metrics` to a scraper holding `METRICS_TOKEN`:
 * requests by route template and status, their durations, the process's own figures (CPU, memory, event-loop
 * delay, garbage collection), notebook runtimes run here and their disk's free space, the PostgreSQL pool, and when the latest daily backup
 * finished (to alert on). Each app has its own registry, so several apps in one process (tests) never mix.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'aiedu_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly durations = new Histogram({
    name: 'aiedu_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'aiedu_' });
  }

  /** Counts every answered request under its route template (`/projects/:id`), never its concrete address. */
  observe(app: FastifyInstance): void {
    app.addHook('onResponse', async (request, reply) => {
      // Requests no route took (404s, probes of random addresses) share one label, so they cannot multiply series.
      const route = request.routeOptions.url ?? 'unmatched';
      if (route === METRICS_PATH) return;
      this.requests.inc({ method: request.method, route, status: String(reply.statusCode) });
      this.durations.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    });
  }

  /** The gauges read at each scrape, and the route that serves them. */
  serve(app: FastifyInstance, token: string, sources: MetricSources): void {
    const registers = [this.registry];
    new Gauge({
      name: 'aiedu_runtimes_running',
      help: 'Notebook runtimes this process runs',
      registers,
      collect() {
        this.set(sources.runtimes.runningHere());
      },
    });
    new Gauge({
      name: 'aiedu_runtimes_starting',
      help: 'Notebook runtimes this process is starting',
      registers,
      collect() {
        this.set(sources.runtimes.startingHere());
      },
    });
    new Gauge({
      name: 'aiedu_runtime_disk_free_bytes',
      help: 'Free space on the disk runtimes write to (the workspace claim on Kubernetes), and the floor below which they are held (MIN_FREE_DISK_MB)',
      labelNames: ['kind'] as const,
      registers,
      async collect() {
        const disk = await sources.runtimes.disk?.measure();
        if (!disk) return;
        this.set({ kind: 'free' }, disk.freeBytes);
        this.set({ kind: 'floor' }, disk.floorBytes);
      },
    });
    new Gauge({
      name: 'aiedu_database_pool_connections',
      help: 'PostgreSQL connections of this process: total, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const stats = sources.pool?.();
        if (!stats) return;
        for (const state of ['total', 'idle', 'waiting'] as const) this.set({ state }, stats[state]);
      },
    });
    new Gauge({
      name: 'aiedu_backup_last_success_timestamp_seconds',
      help: 'When the latest daily backup that succeeded finished (0: none yet)',
      registers,
      async collect() {
        const [row] = await sources.db
          .select({ finishedAt: scheduledBackups.finishedAt })
          .from(scheduledBackups)
          .where(isNotNull(scheduledBackups.file))
          .orderBy(desc(scheduledBackups.day))
          .limit(1);
        this.set(row?.finishedAt ? row.finishedAt.getTime() / 1000 : 0);
      },
    });

    const expected = createHash('sha256').update(`Bearer ${token}`).digest();
    app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
      const given = createHash('sha256')
        .update(request.headers.authorization ?? '')
        .digest();
      if (!timingSafeEqual(given, expected)) {
        return reply.code(401).header('www-authenticate', 'Bearer').type('text/plain').send('metrics need the token\n');
      }
      return reply.type(this.registry.contentType).send(await this.registry.metrics());
    });
  }
}
