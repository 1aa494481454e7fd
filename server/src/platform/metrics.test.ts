import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { scheduledBackups } from './db/schema/index.js';

const TOKEN = 'scrape-token-0123456789';

/** The value of one series in Prometheus' text format, or undefined when it is not there. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('Prometheus metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { metricsToken: TOKEN } });
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  it('are served only to the holder of METRICS_TOKEN', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', TOKEN]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body).not.toContain('aiedu_');
    }
  });

  it('count requests by route template and status, and time them', async () => {
    await t.app.inject({ method: 'GET', url: '/gw/api/v1/sys/setting' });
    await t.app.inject({ method: 'GET', url: '/gw/api/v1/sys/setting' });
    await t.app.inject({ method: 'GET', url: '/gw/api/v1/projects/0192f7a0-0000-7000-8000-000000000000' });
    const text = await scrape();
    expect(valueOf(text, 'aiedu_http_requests_total{method="GET",route="/gw/api/v1/sys/setting",status="200"}')).toBe(
      2,
    );
    // A project's address counts under its template, so addresses never become series of their own.
    expect(valueOf(text, 'aiedu_http_requests_total{method="GET",route="/gw/api/v1/projects/:id",status="401"}')).toBe(
      1,
    );
    expect(text).not.toContain('0192f7a0');
    expect(
      valueOf(text, 'aiedu_http_request_duration_seconds_count{method="GET",route="/gw/api/v1/sys/setting"}'),
    ).toBe(2);
    // Scrapes are not counted.
    expect(text).not.toContain('route="/metrics"');
  });

  it('report the process, its runtimes and their disk, its database pool and the latest daily backup', async () => {
    let text = await scrape();
    expect(valueOf(text, 'aiedu_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('aiedu_nodejs_eventloop_lag_seconds');
    expect(valueOf(text, 'aiedu_runtimes_running')).toBe(0);
    expect(valueOf(text, 'aiedu_runtimes_starting')).toBe(0);
    expect(valueOf(text, 'aiedu_runtime_disk_free_bytes{kind="free"}')).toBeGreaterThan(0);
    expect(valueOf(text, 'aiedu_runtime_disk_free_bytes{kind="floor"}')).toBe(t.config.minFreeDiskMb * 2 ** 20);
    const pool = valueOf(text, 'aiedu_database_pool_connections{state="total"}');
    if (t.database.kind === 'postgres') expect(pool).toBeGreaterThan(0);
    else expect(pool).toBeUndefined();
    expect(valueOf(text, 'aiedu_backup_last_success_timestamp_seconds')).toBe(0);

    const finishedAt = new Date('2026-11-24T02:00:09Z');
    await t.database.db.insert(scheduledBackups).values([
      { day: '2026-11-23', holder: 'p1', startedAt: new Date('2026-11-23T02:00:00Z'), finishedAt, file: '/b/1.tar.gz' },
      // A later day whose backup failed does not hide the one that succeeded.
      { day: '2026-11-24', holder: 'p1', startedAt: finishedAt, finishedAt, error: 'ENOSPC' },
    ]);
    text = await scrape();
    expect(valueOf(text, 'aiedu_backup_last_success_timestamp_seconds')).toBe(finishedAt.getTime() / 1000);
  });
});

describe('without METRICS_TOKEN', () => {
  it('there is no /metrics', async () => {
    const t = await createTestApp();
    try {
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
