import type { TClassroomRoster, TRosterStudent } from '@aiedu/contracts';
import type { AppContext } from '../../platform/context.js';
import { attemptsOfTasks } from '../course/teaching.service.js';
import { scheduleStudents } from '../schedule/schedule.service.js';
import { sectionTasks } from './classroom-outline.js';
import type { Presence, PresenceStore } from './presence-store.js';

/** The user ids among `userIds` who answered every task of `taskIds` (an empty list: nobody, there is nothing). */
async function answeredAll(ctx: AppContext, taskIds: string[], userIds: string[]): Promise<Set<string>> {
  const attempts = await attemptsOfTasks(ctx.db, taskIds, userIds);
  const tasksOf = new Map<string, Set<string>>();
  for (const a of attempts) {
    let tasks = tasksOf.get(a.userId);
    if (!tasks) tasksOf.set(a.userId, (tasks = new Set()));
    tasks.add(a.taskId);
  }
  return new Set([...tasksOf].filter(([, tasks]) => tasks.size === taskIds.length).map(([userId]) => userId));
}

/**
 * A classroom's live roster as the process serving its teachers keeps it: the schedule's students (as they were
 * when it was read), who is online where, and who answered every task of the section the class is on. Changes
 * arrive as presences and answers; `reload` reads it all again.
 */
export class RosterModel {
  private students = new Map<string, { name: string; className: string | null }>();
  private presence = new Map<string, Presence>();
  private submitted = new Set<string>();
  private taskIds: string[] = [];

  private constructor(
    private readonly ctx: AppContext,
    private readonly scheduleId: string,
    public sectionId: string | null,
  ) {}

  static async load(ctx: AppContext, store: PresenceStore, scheduleId: string, sectionId: string | null) {
    const model = new RosterModel(ctx, scheduleId, sectionId);
    await model.reload(store);
    return model;
  }

  /** Reads students, presences and answers again; answers whether anything a teacher sees changed. */
  async reload(store: PresenceStore): Promise<boolean> {
    const before = JSON.stringify(this.snapshot());
    const [students, presence] = await Promise.all([
      scheduleStudents(this.ctx, this.scheduleId),
      store.list(this.scheduleId),
    ]);
    this.students = new Map(students.map((s) => [s.userId, { name: s.name, className: s.className }]));
    this.presence = presence;
    await this.moveTo(this.sectionId);
    return JSON.stringify(this.snapshot()) !== before;
  }

  /** The class is on another section: who answered its tasks is read again. */
  async moveTo(sectionId: string | null): Promise<void> {
    this.sectionId = sectionId;
    this.taskIds = sectionId ? await sectionTasks(this.ctx, this.scheduleId, sectionId) : [];
    this.submitted = this.taskIds.length
      ? await answeredAll(this.ctx, this.taskIds, [...this.students.keys()])
      : new Set();
  }

  /** A student came online, moved, or went away; null for someone not (or no longer) a student of the schedule. */
  applyPresence(userId: string, presence: Presence | null): TRosterStudent | null {
    if (!this.students.has(userId)) return null;
    if (presence) this.presence.set(userId, presence);
    else this.presence.delete(userId);
    return this.entry(userId);
  }

  /** A student answered a task of the current section: whether they have now answered them all. */
  async checkAnswers(userId: string): Promise<TRosterStudent | null> {
    if (!this.students.has(userId) || this.taskIds.length === 0) return null;
    if ((await answeredAll(this.ctx, this.taskIds, [userId])).has(userId)) this.submitted.add(userId);
    return this.entry(userId);
  }

  private entry(userId: string): TRosterStudent {
    const student = this.students.get(userId)!;
    const presence = this.presence.get(userId);
    return {
      userId,
      name: student.name,
      className: student.className,
      online: Boolean(presence),
      sectionId: presence?.sectionId ?? null,
      submitted: this.taskIds.length ? this.submitted.has(userId) : null,
    };
  }

  snapshot(): TClassroomRoster {
    return { sectionId: this.sectionId, students: [...this.students.keys()].map((id) => this.entry(id)) };
  }
}
