import type { TClassroomSession, TServerMessage } from '@aiedu/contracts';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { currentSessions } from './classroom.repository.js';
import { presentSession } from './classroom.presenter.js';
import { PRESENCE_REFRESH_MS, PresenceStore, type Presence } from './presence-store.js';
import { RosterModel } from './roster-model.js';

/** A browser's live socket as the hub sees it. */
export interface LiveClient {
  auth: AuthContext;
  send(text: string): void;
  close(code: number, reason: string): void;
}

type Role = 'teacher' | 'student';

/** What the processes serving a classroom tell each other (the cluster's `classroom` topic). */
export type ClassroomEvent =
  | { kind: 'session'; scheduleId: string; session: TClassroomSession }
  | { kind: 'presence'; scheduleId: string; userId: string; presence: Presence | null }
  | { kind: 'answered'; scheduleId: string; userId: string };

interface Room {
  members: Map<LiveClient, Role>;
  /** The newest session this process has heard of. */
  session: TClassroomSession | null;
  /** Kept while a teacher of the classroom is connected here. */
  roster: Promise<RosterModel> | null;
}

/** How often each process reads the sessions of its classrooms from the database, in case a message was lost. */
export const SESSION_POLL_MS = 3_000;

/** Whether `next` is newer than `known`: a later session (ids are time-ordered), or the same one changed again. */
function newer(known: TClassroomSession | null, next: TClassroomSession): boolean {
  if (!known || next.id > known.id) return true;
  return next.id === known.id && next.revision > known.revision;
}

/**
 * The classrooms this process serves: who of each is connected here, the newest session each has, and (while a
 * teacher is connected here) its live roster. Changes are passed to the connected clients here and, through Redis,
 * to the other processes, which do the same with theirs. Redis pub/sub may lose a message (a process that was
 * reconnecting): every process also reads its classrooms' sessions from the database every 3 s, so a client is at
 * most that late without Redis, and at once with it.
 */
export class ClassroomHub {
  private readonly rooms = new Map<string, Room>();
  readonly presence: PresenceStore;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unsubscribe: () => void;

  constructor(
    private readonly ctx: AppContext,
    instanceId: string,
  ) {
    this.presence = new PresenceStore(ctx.cluster, instanceId);
    this.unsubscribe = ctx.cluster?.subscribe('classroom', (m) => void this.deliver(m as ClassroomEvent)) ?? (() => {});
    this.every(SESSION_POLL_MS, () => this.pollSessions());
    this.every(PRESENCE_REFRESH_MS, () => this.refreshPresence());
  }

  private every(ms: number, run: () => Promise<void>) {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      void run()
        .catch(() => undefined)
        .finally(() => (running = false));
    }, ms);
    timer.unref();
    this.timers.push(timer);
  }

  get clients(): number {
    return new Set([...this.rooms.values()].flatMap((r) => [...r.members.keys()])).size;
  }

  /** A client shows a classroom (its access checked): it gets the session and, a teacher, the roster. */
  async join(client: LiveClient, scheduleId: string, role: Role, session: TClassroomSession | null) {
    let room = this.rooms.get(scheduleId);
    if (!room) this.rooms.set(scheduleId, (room = { members: new Map(), session: null, roster: null }));
    room.members.set(client, role);
    if (session && newer(room.session, session)) room.session = session;
    send(client, { type: 'joined', scheduleId, role, session: room.session });
    if (role === 'teacher') {
      const roster = await this.rosterOf(room, scheduleId);
      if (room.members.has(client)) send(client, { type: 'roster', scheduleId, roster: roster.snapshot() });
    } else {
      await this.studentAt(client, scheduleId, null);
    }
  }

  private rosterOf(room: Room, scheduleId: string): Promise<RosterModel> {
    if (!room.roster) {
      room.roster = RosterModel.load(this.ctx, this.presence, scheduleId, room.session?.sectionId ?? null);
      room.roster.catch(() => (room.roster = null));
    }
    return room.roster;
  }

  /** Where a student's screen is; `held` false for a student without a socket (the polling fallback). */
  async studentAt(client: LiveClient | null, scheduleId: string, sectionId: string | null, userId?: string) {
    const who = client?.auth.userId ?? userId!;
    await this.presence.put(scheduleId, who, sectionId, client !== null);
    await this.emit({ kind: 'presence', scheduleId, userId: who, presence: { sectionId, at: Date.now() } });
  }

  /** A student answered a task: the processes serving the classroom's teachers check it. */
  answered(scheduleId: string, userId: string) {
    return this.emit({ kind: 'answered', scheduleId, userId });
  }

  /** A session changed (opened, started, moved, released, finished): every member is told, here and elsewhere. */
  sessionChanged(scheduleId: string, session: TClassroomSession) {
    return this.emit({ kind: 'session', scheduleId, session });
  }

  async leave(client: LiveClient, scheduleId: string) {
    const room = this.rooms.get(scheduleId);
    const role = room?.members.get(client);
    if (!room || !role) return;
    room.members.delete(client);
    if (room.members.size === 0) this.rooms.delete(scheduleId);
    else if (![...room.members.values()].includes('teacher')) room.roster = null;
    const stillHere = [...room.members.keys()].some((c) => c.auth.userId === client.auth.userId);
    if (role === 'student' && !stillHere) {
      await this.presence.drop(scheduleId, client.auth.userId);
      // Another tab, through another process, may still show the classroom.
      const elsewhere = (await this.presence.list(scheduleId)).get(client.auth.userId) ?? null;
      await this.emit({ kind: 'presence', scheduleId, userId: client.auth.userId, presence: elsewhere });
    }
  }

  /** A client's socket closed: it leaves every classroom. */
  async disconnect(client: LiveClient) {
    for (const [scheduleId, room] of [...this.rooms])
      if (room.members.has(client)) await this.leave(client, scheduleId);
  }

  /** The classrooms a client shows, with its role in each. */
  membershipsOf(client: LiveClient): [string, Role][] {
    return [...this.rooms].flatMap(([id, room]) => {
      const role = room.members.get(client);
      return role ? [[id, role] as [string, Role]] : [];
    });
  }

  private async emit(event: ClassroomEvent) {
    await this.deliver(event);
    await this.ctx.cluster?.publish('classroom', event);
  }

  private async deliver(event: ClassroomEvent) {
    const room = this.rooms.get(event.scheduleId);
    if (!room) return;
    if (event.kind === 'session') {
      if (!newer(room.session, event.session)) return;
      const moved = room.session?.sectionId !== event.session.sectionId || room.session?.id !== event.session.id;
      room.session = event.session;
      broadcast(room, 'all', { type: 'session', scheduleId: event.scheduleId, session: event.session });
      if (moved && room.roster) {
        const roster = await room.roster;
        await roster.moveTo(event.session.sectionId);
        broadcast(room, 'teacher', { type: 'roster', scheduleId: event.scheduleId, roster: roster.snapshot() });
      }
      return;
    }
    if (!room.roster) return;
    const roster = await room.roster;
    const student =
      event.kind === 'presence'
        ? roster.applyPresence(event.userId, event.presence)
        : await roster.checkAnswers(event.userId);
    if (student) broadcast(room, 'teacher', { type: 'presence', scheduleId: event.scheduleId, student });
  }

  /** The sessions of every classroom served here, from the database: anything newer than known is passed on. */
  private async pollSessions() {
    const rows = await currentSessions(this.ctx.db, [...this.rooms.keys()]);
    for (const [scheduleId, row] of rows) {
      await this.deliver({ kind: 'session', scheduleId, session: presentSession(row) });
    }
  }

  /** Says again where this process's students are, and reads the rosters again (a process that went away). */
  private async refreshPresence() {
    await this.presence.refresh();
    for (const [scheduleId, room] of this.rooms) {
      if (!room.roster) continue;
      const roster = await room.roster;
      if (await roster.reload(this.presence)) {
        broadcast(room, 'teacher', { type: 'roster', scheduleId, roster: roster.snapshot() });
      }
    }
  }

  async close() {
    for (const timer of this.timers) clearInterval(timer);
    this.unsubscribe();
    this.rooms.clear();
    await this.presence.clear();
  }
}

export function send(client: LiveClient, message: TServerMessage) {
  client.send(JSON.stringify(message));
}

/** One message to every member (or every teacher) of a room, serialised once. */
function broadcast(room: Room, to: 'all' | 'teacher', message: TServerMessage) {
  const text = JSON.stringify(message);
  for (const [client, role] of room.members) if (to === 'all' || role === to) client.send(text);
}
