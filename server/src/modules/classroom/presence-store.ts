import type { RedisCluster } from '../../platform/cluster.js';

/** Where a student is: the section their screen shows (null: the classroom, no section yet), and when it was said. */
export interface Presence {
  sectionId: string | null;
  at: number;
}

/** A presence older than this is gone: its process has not refreshed it (it stopped, or lost Redis). */
export const PRESENCE_STALE_MS = 30_000;
/** How often a process says again where its students are. */
export const PRESENCE_REFRESH_MS = 10_000;

const key = (scheduleId: string) => `classroom:${scheduleId}:presence`;

/**
 * Who of a classroom is online, and where, for the whole deployment. Each process writes the students it serves
 * (in memory, and with Redis into one hash per classroom, a field per process and student); a roster reads all of
 * them. Without Redis, or while it is away, a process sees its own students only.
 */
export class PresenceStore {
  /** `held`: a socket of this process holds the student, so the presence is refreshed until it closes. */
  private readonly local = new Map<string, Map<string, Presence & { held: boolean }>>();

  constructor(
    private readonly cluster: RedisCluster | null,
    /** This process, which starts the names of its fields. */
    private readonly instanceId: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A student is at `sectionId`: held by a socket, or said by a call that must come again to stay present. */
  async put(scheduleId: string, userId: string, sectionId: string | null, held: boolean): Promise<void> {
    const at = this.now();
    let room = this.local.get(scheduleId);
    if (!room) this.local.set(scheduleId, (room = new Map()));
    room.set(userId, { sectionId, at, held });
    await this.cluster
      ?.putFields(key(scheduleId), { [`${this.instanceId}/${userId}`]: JSON.stringify({ sectionId, at }) }, 3_600_000)
      .catch(() => undefined);
  }

  async drop(scheduleId: string, userId: string): Promise<void> {
    const room = this.local.get(scheduleId);
    room?.delete(userId);
    if (room?.size === 0) this.local.delete(scheduleId);
    await this.cluster?.dropFields(key(scheduleId), [`${this.instanceId}/${userId}`]).catch(() => undefined);
  }

  /** Says again where this process's students are, so their presence does not go stale. */
  async refresh(): Promise<void> {
    for (const [scheduleId, room] of this.local) {
      const at = this.now();
      const fields: Record<string, string> = {};
      for (const [userId, presence] of room) {
        if (!presence.held) {
          if (presence.at < at - PRESENCE_STALE_MS) room.delete(userId);
          continue;
        }
        presence.at = at;
        fields[`${this.instanceId}/${userId}`] = JSON.stringify({ sectionId: presence.sectionId, at });
      }
      if (room.size === 0) this.local.delete(scheduleId);
      if (Object.keys(fields).length > 0) {
        await this.cluster?.putFields(key(scheduleId), fields, 3_600_000).catch(() => undefined);
      }
    }
  }

  /** Every student of the classroom online anywhere: the latest presence of each. */
  async list(scheduleId: string): Promise<Map<string, Presence>> {
    const merged = new Map<string, Presence>(this.local.get(scheduleId));
    const stored: Record<string, string> = this.cluster
      ? await this.cluster.fields(key(scheduleId)).catch(() => ({}))
      : {};
    const oldest = this.now() - PRESENCE_STALE_MS;
    for (const [field, text] of Object.entries(stored)) {
      const userId = field.slice(field.indexOf('/') + 1);
      let presence: Presence;
      try {
        presence = JSON.parse(text) as Presence;
      } catch {
        continue;
      }
      const known = merged.get(userId);
      if (presence.at >= oldest && (!known || known.at < presence.at)) merged.set(userId, presence);
    }
    for (const [userId, presence] of merged) if (presence.at < oldest) merged.delete(userId);
    return merged;
  }

  /** The process stops: its students are no longer online through it. */
  async clear(): Promise<void> {
    for (const [scheduleId, room] of this.local) {
      await this.cluster
        ?.dropFields(
          key(scheduleId),
          [...room.keys()].map((userId) => `${this.instanceId}/${userId}`),
        )
        .catch(() => undefined);
    }
    this.local.clear();
  }
}
