import {
  EVENT_API,
  type RegistrationState,
  type TEventImage,
  type TQualificationDecision,
  type TRegistration,
  type TSaveRegistration,
  type TPage,
} from '@aiedu/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';

/** The calls of a team's registration and declaration, and of the organisers' qualification audit. */

/** Refusals the declaration shows in its own words: phase closed, not eligible, state, team, already registered. */
export const DECLARATION_CODES = ['1001', '4501', '4502', '4503', '4504', '4505'];

export function useRegistration(eventId: string | undefined) {
  return useQuery({
    queryKey: [EVENT_API.registration, eventId],
    queryFn: () => api.get<TRegistration | null>(EVENT_API.registration, { query: { eventId } }),
    enabled: Boolean(eventId),
  });
}

export function useQualification(eventId: string, query: { page: number; size: number; state?: RegistrationState }) {
  return useQuery({
    queryKey: [EVENT_API.qualification, eventId, query],
    queryFn: () => api.get<TPage<TRegistration>>(EVENT_API.qualification, { query: { eventId, ...query } }),
    placeholderData: keepPreviousData,
  });
}

export const declarationCalls = {
  save: (body: TSaveRegistration) =>
    api.post<TRegistration>(EVENT_API.registration, body, { handledCodes: DECLARATION_CODES }),
  submit: (registrationId: string) =>
    api.put<TRegistration>(EVENT_API.registrationSubmit, undefined, {
      query: { registrationId },
      handledCodes: DECLARATION_CODES,
    }),
  withdraw: (registrationId: string) =>
    api.put<TRegistration>(EVENT_API.registrationWithdraw, undefined, {
      query: { registrationId },
      handledCodes: DECLARATION_CODES,
    }),
  uploadPhoto: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<TEventImage>(EVENT_API.uploadPhoto, form);
  },
  decide: (body: TQualificationDecision) =>
    api.post<TRegistration>(EVENT_API.qualificationDecide, body, { handledCodes: ['4503'] }),
};

/** A change to a registration: the registration, the audit list, the event (its team count) and "my contests" are read again. */
export function useDeclarationMutation<V, R>(call: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      await Promise.all(
        [EVENT_API.registration, EVENT_API.qualification, EVENT_API.detail, EVENT_API.mine].map((key) =>
          client.invalidateQueries({ queryKey: [key] }),
        ),
      );
    },
  });
}
