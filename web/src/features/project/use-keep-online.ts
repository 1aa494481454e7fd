import { projectApi } from '@aiedu/contracts';
import { useEffect } from 'react';
import { api } from '../../app/api';

/** How often a shown editor says it is there: well within the shortest idle time an operator would set. */
export const KEEP_ONLINE_MS = 60_000;

/**
 * While the editor is shown and its runtime runs, tells the server every minute that someone is working there, so
 * a long cell or output being read does not end as an idle runtime. A hidden or closed tab says nothing, and the
 * idle stop frees its runtime.
 */
export function useKeepOnline(projectId: string, running: boolean) {
  useEffect(() => {
    if (!running) return;
    const send = () => {
      if (document.visibilityState !== 'visible') return;
      // A refusal (the runtime just stopped) is shown by the runtime's own state, read on its own schedule.
      void api
        .post(projectApi(projectId).runtimeKeepOnline, {}, { quiet: true, handledCodes: ['3105'] })
        .catch(() => undefined);
    };
    const timer = setInterval(send, KEEP_ONLINE_MS);
    document.addEventListener('visibilitychange', send);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', send);
    };
  }, [projectId, running]);
}
