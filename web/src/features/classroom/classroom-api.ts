import {
  classroomApi,
  classroomSessionApi,
  type TClassroom,
  type TClassroomMode,
  type TClassroomRoster,
  type TClassroomSession,
  type TLearnerSection,
  type TLessonNote,
  type TResourceLink,
} from '@aiedu/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../app/api';

/** The calls of the live classroom's teach and learn views. */

export const classroomKeys = {
  classroom: (id: string) => ['classroom', id] as const,
  notes: (id: string) => ['classroom', id, 'notes'] as const,
  section: (id: string, sectionId: string) => ['classroom', id, 'section', sectionId] as const,
};

/** Codes the page shows as its own state: the schedule is not the caller's (or no longer exists). */
const PAGE_CODES = ['1004'];

export function useClassroom(scheduleId: string) {
  return useQuery({
    queryKey: classroomKeys.classroom(scheduleId),
    queryFn: () => api.get<TClassroom>(classroomApi(scheduleId).base, { handledCodes: PAGE_CODES }),
    retry: false,
    // The live socket keeps the session current: the page's first answer is only where it starts.
    staleTime: Infinity,
  });
}

/** A section of the schedule's courses as its students see it, for a teacher (who need not have joined it). */
export function useTeacherSection(scheduleId: string, sectionId: string | null) {
  return useQuery({
    queryKey: classroomKeys.section(scheduleId, sectionId ?? ''),
    queryFn: () =>
      api.get<TLearnerSection>(classroomApi(scheduleId).section, { query: { sectionId: sectionId ?? '' } }),
    enabled: Boolean(sectionId),
    staleTime: 60_000,
  });
}

export function useResourceLink(scheduleId: string, resourceId: string) {
  return useQuery({
    queryKey: ['classroom', scheduleId, 'resource', resourceId],
    queryFn: () => api.get<TResourceLink>(classroomApi(scheduleId).resource, { query: { resourceId } }),
  });
}

export function useLessonNotes(scheduleId: string) {
  return useQuery({
    queryKey: classroomKeys.notes(scheduleId),
    queryFn: () => api.get<TLessonNote[]>(classroomApi(scheduleId).notes),
  });
}

/** Saves a section's notes and keeps the answer in the notes the view holds. */
export function useSaveNote(scheduleId: string) {
  const client = useQueryClient();
  return useCallback(
    async (sectionId: string, body: string) => {
      const saved = await api.put<TLessonNote>(classroomApi(scheduleId).notes, { sectionId, body });
      client.setQueryData<TLessonNote[]>(classroomKeys.notes(scheduleId), (notes = []) => [
        ...notes.filter((n) => n.sectionId !== sectionId),
        saved,
      ]);
      return saved;
    },
    [client, scheduleId],
  );
}

/**
 * The lesson's moves over HTTP. A refusal (4301 a move the lesson's state does not allow, 4201 a schedule not in
 * progress) is toasted by the API client with the catalogue's message.
 */
export const lessonCalls = {
  open: (scheduleId: string) => api.post<TClassroomSession>(classroomApi(scheduleId).open),
  start: (sessionId: string) => api.post<TClassroomSession>(classroomSessionApi(sessionId).start),
  finish: (sessionId: string) => api.post<TClassroomSession>(classroomSessionApi(sessionId).finish),
  show: (sessionId: string, sectionId: string) =>
    api.put<TClassroomSession>(classroomSessionApi(sessionId).section, { sectionId }),
  mode: (sessionId: string, mode: TClassroomMode) =>
    api.put<TClassroomSession>(classroomSessionApi(sessionId).mode, { mode }),
};

/**
 * The polling fallback's calls: quiet, as a class without its socket would otherwise see a toast every few seconds;
 * the connection banner says what is wrong instead.
 */
export const pollCalls = {
  presence: (scheduleId: string, sectionId: string | null) =>
    api.post<TClassroomSession | null>(classroomApi(scheduleId).presence, { sectionId }, { quiet: true }),
  roster: (scheduleId: string) => api.get<TClassroomRoster>(classroomApi(scheduleId).roster, { quiet: true }),
};
