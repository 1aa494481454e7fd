import {
  EVENT_API,
  type EventState,
  type TCreateEventRequest,
  type TEvent,
  type TEventImage,
  type TEventResults,
  type TLadder,
  type TMyContest,
  type TUpdateEventRequest,
  type TPage,
} from '@aiedu/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../app/api';
import { visitorCustcode } from './event-api';

/** The calls of the event list, an event's results and ladder, the organisers' form and "my contests". */

export interface EventListQuery {
  page: number;
  size: number;
  keyword?: string;
  state?: EventState;
  track?: string;
  stage?: string;
  /** The customer whose events a visitor sees (signed-in callers are known by their session). */
  custcode?: string;
}

/** Refusals the form shows beside its fields rather than as a toast. */
export const EVENT_FORM_CODES = ['1001', '4503', '4509'];

export function useEventList(query: EventListQuery) {
  return useQuery({
    queryKey: [EVENT_API.events, query],
    queryFn: () => api.get<TPage<TEvent>>(EVENT_API.events, { query: { ...query } }),
    placeholderData: keepPreviousData,
  });
}

/** The caller's contests; a page of them, or all of them as a plain list. */
export function useMyContests() {
  return useQuery({
    queryKey: [EVENT_API.mine],
    queryFn: async () => {
      const answer = await api.get<TPage<TMyContest> | TMyContest[]>(EVENT_API.mine);
      return Array.isArray(answer) ? answer : answer.list;
    },
  });
}

export function useEventResults(eventId: string, enabled: boolean) {
  return useQuery({
    queryKey: [EVENT_API.results, eventId],
    queryFn: () => api.get<TEventResults>(EVENT_API.results, { query: { eventId, custcode: visitorCustcode() } }),
    enabled,
  });
}

export function useLadder(eventId: string, trackId: string) {
  return useQuery({
    queryKey: [EVENT_API.ladder, eventId, trackId],
    queryFn: () => api.get<TLadder>(EVENT_API.ladder, { query: { eventId, trackId, custcode: visitorCustcode() } }),
  });
}

export const eventCalls = {
  create: (body: TCreateEventRequest) => api.post<TEvent>(EVENT_API.events, body, { handledCodes: EVENT_FORM_CODES }),
  update: (body: TUpdateEventRequest) => api.put<TEvent>(EVENT_API.events, body, { handledCodes: EVENT_FORM_CODES }),
  uploadImage: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<TEventImage>(EVENT_API.uploadImage, form);
  },
};
