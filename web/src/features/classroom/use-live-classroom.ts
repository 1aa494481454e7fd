import type { TClassroom, TClassroomRoster, TClassroomSession, TServerMessage } from '@aiedu/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../app/api-client';
import { toast } from '../../app/feedback';
import { liveSocket } from './browser-live-socket';
import { lessonCalls, pollCalls } from './classroom-api';
import type { LiveStatus } from './live-socket';

/** How often a view without its socket asks the REST routes; doubled after each failure, up to the most. */
export const POLL_MS = 4_000;
export const POLL_MAX_MS = 30_000;

/** Whether `next` is newer than `known`: a later lesson (ids grow with time), or the same one changed again. */
export function isNewer(known: TClassroomSession | null, next: TClassroomSession): boolean {
  if (!known || next.id > known.id) return true;
  return next.id === known.id && next.revision > known.revision;
}

export interface LiveClassroom {
  session: TClassroomSession | null;
  /** The teachers' live roster (null until the first arrives). */
  roster: TClassroomRoster | null;
  status: LiveStatus;
  /** The socket is away (or refused the classroom): the view asks the REST routes instead. */
  polling: boolean;
  /** Why the last poll failed: the catalogue's message of a refusal, or null when the server was not reached. */
  pollFailure: { message: string | null } | null;
  /** A section a teacher asked to show that the class has not reached yet. */
  pendingSection: string | null;
  /** Keeps a session an HTTP call answered (a lesson opened, started, released …). */
  accept(session: TClassroomSession | null): void;
  /** Students: the section their screen shows. */
  reportAt(sectionId: string | null): void;
  /** Students: an answer was given; the teachers' roster checks it. */
  reportAnswer(): void;
  /** Teachers: moves the class to a section. */
  show(sectionId: string): void;
}

const messageOf = (error: unknown) =>
  error instanceof ApiError && error.kind === 'rejected' && typeof error.body === 'object' ? error.body.errorMsg : null;

/**
 * A classroom as it is now: the lesson (from the socket's `joined` and `session` messages, or the polls), the
 * teachers' roster, and the ways to move. Sessions are kept by revision, so an older answer arriving late never
 * moves the class back.
 */
export function useLiveClassroom(classroom: TClassroom): LiveClassroom {
  const { scheduleId, role } = classroom;
  const [session, setSession] = useState(classroom.session);
  const [roster, setRoster] = useState<TClassroomRoster | null>(null);
  const [status, setStatus] = useState<LiveStatus>(() => liveSocket().status);
  const [joined, setJoined] = useState(false);
  const [refused, setRefused] = useState(false);
  const [pendingSection, setPending] = useState<string | null>(null);
  const [pollFailure, setPollFailure] = useState<{ message: string | null } | null>(null);
  const sessionRef = useRef(session);
  const joinedRef = useRef(false);
  /** Where the student is, and what the socket was last told. */
  const at = useRef<string | null>(null);
  const toldAt = useRef<string | null | undefined>(undefined);

  const accept = useCallback((next: TClassroomSession | null) => {
    if (!next || !isNewer(sessionRef.current, next)) return;
    sessionRef.current = next;
    setSession(next);
    setPending((pending) => (pending === next.sectionId || next.status !== 'teaching' ? null : pending));
  }, []);

  const tellAt = useCallback(() => {
    if (toldAt.current === at.current) return;
    if (liveSocket().send({ type: 'at', scheduleId, sectionId: at.current })) toldAt.current = at.current;
  }, [scheduleId]);

  useEffect(() => {
    const live = liveSocket();
    const onMessage = (message: TServerMessage) => {
      switch (message.type) {
        case 'joined':
          joinedRef.current = true;
          setJoined(true);
          setRefused(false);
          accept(message.session);
          // Joining puts the student in the classroom without a section: the view says where they are once it
          // shows the lesson it joined (`reportAt` runs again as `joined` changes).
          toldAt.current = undefined;
          return;
        case 'session':
          return accept(message.session);
        case 'roster':
          return setRoster(message.roster);
        case 'presence':
          return setRoster((r) =>
            r
              ? {
                  ...r,
                  students: r.students.map((s) => (s.userId === message.student.userId ? message.student : s)),
                }
              : r,
          );
        case 'refused':
          toast.error(message.errorMsg);
          setPending(null);
          // A classroom the socket may not show is followed over the REST routes, which answer the same refusal.
          if (!joinedRef.current) setRefused(true);
          return;
        default:
          return;
      }
    };
    const offStatus = live.onStatus((next) => {
      setStatus(next);
      if (next !== 'live') {
        joinedRef.current = false;
        setJoined(false);
        setPending(null);
      }
    });
    const leave = live.join(scheduleId, onMessage);
    return () => {
      offStatus();
      leave();
    };
  }, [scheduleId, accept]);

  const polling = status === 'retrying' || refused;
  useEffect(() => {
    if (!polling) return undefined;
    let stopped = false;
    let timer: number | undefined;
    let delay = POLL_MS;
    const poll = async () => {
      try {
        if (role === 'teacher') {
          const [now, latest] = await Promise.all([pollCalls.presence(scheduleId, null), pollCalls.roster(scheduleId)]);
          accept(now);
          if (!stopped) setRoster(latest);
        } else {
          accept(await pollCalls.presence(scheduleId, at.current));
        }
        delay = POLL_MS;
        if (!stopped) setPollFailure(null);
      } catch (error) {
        delay = Math.min(POLL_MAX_MS, delay * 2);
        if (!stopped) setPollFailure({ message: messageOf(error) });
      }
      if (!stopped) timer = window.setTimeout(() => void poll(), delay);
    };
    void poll();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      setPollFailure(null);
    };
  }, [polling, role, scheduleId, accept]);

  const reportAt = useCallback(
    (sectionId: string | null) => {
      at.current = sectionId;
      if (joined) tellAt();
    },
    [joined, tellAt],
  );

  const reportAnswer = useCallback(() => {
    if (joined) liveSocket().send({ type: 'submitted', scheduleId });
  }, [joined, scheduleId]);

  const show = useCallback(
    (sectionId: string) => {
      const lesson = sessionRef.current;
      if (lesson?.status !== 'teaching' || sectionId === lesson.sectionId) return setPending(null);
      setPending(sectionId);
      const sent = joined && liveSocket().send({ type: 'show', scheduleId, sessionId: lesson.id, sectionId });
      if (sent) return;
      lessonCalls.show(lesson.id, sectionId).then(accept, () => setPending(null));
    },
    [joined, scheduleId, accept],
  );

  return { session, roster, status, polling, pollFailure, pendingSection, accept, reportAt, reportAnswer, show };
}
