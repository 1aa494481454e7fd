import type { RedisCluster } from '../cluster.js';

/** Which sign-ins ended: one session (logout, a reused refresh token), or every session of a user but one. */
export type SessionsEnded = { sessionId: string } | { userId: string; exceptSessionId?: string };

function isSessionsEnded(message: unknown): message is SessionsEnded {
  if (typeof message !== 'object' || message === null) return false;
  const m = message as Record<string, unknown>;
  return (
    typeof m.sessionId === 'string' ||
    (typeof m.userId === 'string' && (m.exceptSessionId === undefined || typeof m.exceptSessionId === 'string'))
  );
}

/**
 * Tells the parts of this process that hold something open for a sign-in (the runtime gateway's WebSockets) that
 * it ended, so they let go at once instead of at their next check. With Redis, the other processes of the
 * deployment are told too, and what they announce is passed on here.
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
