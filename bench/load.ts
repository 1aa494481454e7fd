import autocannon from 'autocannon';

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  errors: number;
}

/** The value at `p` % of an ascending list. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** A bounded load on a loopback URL: fixed connections and duration; every response time is kept for p95. */
export async function load(
  label: string,
  url: string,
  options: {
    connections?: number;
    seconds?: number;
    headers?: Record<string, string>;
    /** Paths each connection requests in turn (on the URL's origin), instead of the URL's own. */
    paths?: string[];
  } = {},
): Promise<LoadResult> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) throw new Error(`loopback only: ${url}`);
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: options.connections ?? 10,
        duration: options.seconds ?? 5,
        headers: options.headers,
        ...(options.paths ? { requests: options.paths.map((path) => ({ path })) } : {}),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      times.push(responseTime);
    });
  });
  times.sort((a, b) => a - b);
  return {
    label,
    requestsPerSecond: result.requests.average,
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    errors: result.errors + result.non2xx,
  };
}

export function formatLoad(r: LoadResult): string {
  return `${r.label.padEnd(44)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${r.p50Ms.toFixed(2)} ms   p95 ${r.p95Ms.toFixed(2)} ms   errors ${r.errors}`;
}
