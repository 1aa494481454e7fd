import { useMatches } from 'react-router';
import type { ScreenKey } from '../locales/namespaces';

/** What the route table attaches to each route (`handle`). */
export interface ScreenHandle {
  screen: ScreenKey;
}

function isScreenHandle(handle: unknown): handle is ScreenHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as ScreenHandle).screen === 'string';
}

/** The screen being shown: the deepest route that names one. */
export function useCurrentScreen(): ScreenKey | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle;
    if (isScreenHandle(handle)) return handle.screen;
  }
  return undefined;
}
