import { EVENT_API, type TEvent } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../app/api';
import { readSession } from '../../app/session';

/**
 * The event calls every event screen shares. Each screen's own calls live next to it (`*-api.ts` of its part);
 * after a change, invalidate the keys of `EVENT_API` paths the change touches.
 */

/**
 * The customer a visitor's link names (`?custcode=`), or the one remembered from the last sign-in: a visitor sees a
 * customer's events only by naming it; a signed-in caller is known by the session.
 */
export function visitorCustcode(): string | undefined {
  return new URLSearchParams(window.location.search).get('custcode') || readSession().custcode || undefined;
}

/** One event with the caller's part in it (`viewer`) and the server's time. */
export function useEvent(eventId: string | undefined) {
  const custcode = visitorCustcode();
  return useQuery({
    queryKey: [EVENT_API.detail, eventId, custcode],
    queryFn: () => api.get<TEvent>(EVENT_API.detail, { query: { eventId, custcode } }),
    enabled: Boolean(eventId),
  });
}

/** Paths of an event's screens. */
export const eventPaths = {
  list: '/pjedu/events',
  create: '/pjedu/events/new',
  mine: '/pjedu/my/contests',
  detail: (id: string) => `/pjedu/events/${id}`,
  edit: (id: string) => `/pjedu/events/${id}/edit`,
  works: (id: string) => `/pjedu/events/${id}/my-works`,
  declaration: (id: string) => `/pjedu/events/${id}/declaration`,
  reviews: (id: string) => `/pjedu/events/${id}/reviews`,
  judging: (id: string) => `/pjedu/events/${id}/judging`,
  qualification: (id: string) => `/pjedu/events/${id}/qualification`,
} as const;
