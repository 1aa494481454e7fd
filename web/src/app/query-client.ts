import { QueryClient } from '@tanstack/react-query';

/**
 * Queries do not retry: the API client already renews expired tokens and replays, and every other
 * failure has shown its message once.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
