/** Which sign-ins ended: one session (logout, a reused refresh token), or every session of a user but one. */
export type SessionsEnded = { sessionId: string } | { userId: string; exceptSessionId?: string };

/**
 * Tells the parts of this process that hold something open for a sign-in (the runtime gateway's WebSockets) that
 * it ended, so they let go at once instead of at their next check.
 */
export class SessionEvents {
  private readonly listeners = new Set<(ended: SessionsEnded) => void>();

  onEnded(listener: (ended: SessionsEnded) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  ended(ended: SessionsEnded): void {
    for (const listener of this.listeners) listener(ended);
  }
}
