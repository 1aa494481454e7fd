import type { RuntimeEndpoint } from './runtime-driver.js';

/** How long the idle check waits for Jupyter's list of kernels; a runtime that does not answer is not culled. */
const BUSY_PROBE_MS = 5_000;

/**
 * Whether any kernel of the runtime is running a cell; null when Jupyter does not say (no answer within
 * BUSY_PROBE_MS, an error).
 */
export async function kernelsBusy(endpoint: RuntimeEndpoint): Promise<boolean | null> {
  try {
    const res = await fetch(`${endpoint.baseUrl}/api/kernels`, {
      headers: { authorization: `token ${endpoint.token}` },
      signal: AbortSignal.timeout(BUSY_PROBE_MS),
    });
    if (!res.ok) {
      await res.body?.cancel();
      return null;
    }
    const kernels = (await res.json()) as { execution_state?: string }[];
    return kernels.some((k) => k.execution_state === 'busy' || k.execution_state === 'starting');
  } catch {
    return null;
  }
}
