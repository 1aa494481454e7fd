import {
  QueryClient,
  type InvalidateOptions,
  type InvalidateQueryFilters,
  type Query,
  type QueryFilters,
} from '@tanstack/react-query';

/** A query on its first read for someone watching it: no data yet, a request in flight, an observer. */
const onFirstRead = (query: Query) =>
  query.state.data === undefined && query.state.fetchStatus === 'fetching' && query.isActive();

/**
 * A change announced by `invalidateQueries` reaches every list, also one still on its first read. TanStack Query
 * cancels a read in flight before refetching only when the query already has data; one without data hands its
 * refetch the read in flight, sent before the change, whose answer would stand until the next change. Such reads
 * are cancelled first, the way TanStack cancels the others (silently, at once), so the refetch asks again.
 */
class ChangeAwareQueryClient extends QueryClient {
  override invalidateQueries<TTaggedQueryKey extends readonly unknown[] = readonly unknown[]>(
    filters?: InvalidateQueryFilters<TTaggedQueryKey>,
    options?: InvalidateOptions,
  ): Promise<void> {
    // Only where the refetch follows: `refetchType: 'none'` or `'inactive'` would leave an active query unread.
    const refetched = filters?.refetchType !== 'none' && filters?.refetchType !== 'inactive';
    for (const query of refetched ? this.getQueryCache().findAll(filters as QueryFilters) : []) {
      if (onFirstRead(query)) void query.cancel({ silent: true });
    }
    return super.invalidateQueries(filters, options);
  }
}

/**
 * Queries do not retry: the API client already renews expired tokens and replays, and every other
 * failure has shown its message once.
 */
export function createQueryClient(): QueryClient {
  return new ChangeAwareQueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
