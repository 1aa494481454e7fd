import type { RedisCluster } from '../cluster.js';

/**
 * Which sign-ins ended: one session (logout, a reused refresh token), every session of a user but one (a password
 * change or reset, an administrator's switch or reset), or any number of them (a school or customer switched off),
 * which each holder finds by checking all of its own again.
 */
export type SessionsEnded = { sessionId: string } | { userId: string; exceptSessionId?: string } | { all: true };

function isSessionsEnded(message: unknown): message is SessionsEnded {
  if (typeof message !== 'object' || message === null) return false;
  const m = message as Record<string, unknown>;
  return (
    typeof m.sessionId === 'string' ||
    m.all === true ||
    (typeof m.userId === 'string' && (m.exceptSessionId === undefined || typeof m.exceptSessionId === 'string'))
  );
}

/**
 * Tells the parts of this process that hold something for a sign-in (the runtime gateway's WebSockets, the auth
 * guard's memory of the sessions it found standing) that it ended, so they let go at once instead of at their next
 * check. With Redis, the other processes of the deployment are told too, and what they announce is passed on here.
 */
export class SessionEvents {
  private readonly listeners = new Set<(ended: SessionsEnded) => void>();

  constructor(private readonly cluster: RedisCluster | null = null) {
    cluster?.subscribe('sessions-ended', (message) => {
      if (isSessionsEnded(message)) this.notify(message);
    });
  }

  onEnded(listener: (ended: SessionsEnded) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  ended(ended: SessionsEnded): void {
    this.notify(ended);
    void this.cluster?.publish('sessions-ended', ended);
  }

  private notify(ended: SessionsEnded) {
    for (const listener of this.listeners) listener(ended);
  }
}
