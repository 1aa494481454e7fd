import { LRUCache } from 'lru-cache';
import type { SessionEvents, SessionsEnded } from './session-events.js';
import type { AuthContext } from './tokens.js';

/**
 * Why the sign-in an access token names no longer stands: it ended (a logout, a reused refresh token, a password
 * change or reset, an administrator's reset: `E002`), or its account, school or customer is switched off (`E003`).
 */
export type SessionRefusal = 'SESSION_REPLACED' | 'ACCOUNT_DISABLED';

/**
 * How long a process answers from memory what the database said of a sign-in. A sign-in that ends in this process,
 * or in another one that tells it through Redis, is forgotten at once; one that ends where this process is not told
 * (no Redis, a message missed while Redis was away, a change made in the database by hand) is refused here at the
 * latest this long after.
 */
export const SESSION_RECHECK_MS = 5_000;

/** Sessions kept (about 0.2 KB each): one per signed-in person of a large school, as the checked tokens. */
const KEPT_SESSIONS = 10_000;

interface Known {
  userId: string;
  refusal: SessionRefusal | null;
  /** When the database was asked (ms since the epoch). */
  askedAt: number;
}

/**
 * Whether the sign-in of an access token still stands, for every request that carries one. The database is the
 * truth (`lookup`); its answer is kept for `SESSION_RECHECK_MS`, so a signed-in caller costs one query every few
 * seconds rather than one per request, and requests that find no answer kept share one query.
 */
export class SessionCheck {
  private readonly known = new LRUCache<string, Known>({ max: KEPT_SESSIONS });
  private readonly asking = new Map<string, Promise<SessionRefusal | null>>();
  /** Counts the ends announced: an answer asked for before one is not kept, since it may predate that end. */
  private ends = 0;

  constructor(
    private readonly lookup: (auth: AuthContext) => Promise<SessionRefusal | null>,
    events: SessionEvents,
    private readonly now: () => Date,
  ) {
    events.onEnded((ended) => this.forget(ended));
  }

  /** Null while the sign-in stands; else why it does not. */
  refusal(auth: AuthContext): SessionRefusal | null | Promise<SessionRefusal | null> {
    const now = this.now().getTime();
    const known = this.known.get(auth.sessionId);
    if (known && now - known.askedAt < SESSION_RECHECK_MS) return known.refusal;
    return this.asking.get(auth.sessionId) ?? this.ask(auth, now);
  }

  private ask(auth: AuthContext, now: number): Promise<SessionRefusal | null> {
    const ends = this.ends;
    const asked = this.lookup(auth)
      .then((refusal) => {
        if (this.ends === ends) this.known.set(auth.sessionId, { userId: auth.userId, refusal, askedAt: now });
        return refusal;
      })
      .finally(() => {
        if (this.asking.get(auth.sessionId) === asked) this.asking.delete(auth.sessionId);
      });
    this.asking.set(auth.sessionId, asked);
    return asked;
  }

  private forget(ended: SessionsEnded) {
    this.ends++;
    // A question already on its way may have been answered before the end: the next request asks again.
    this.asking.clear();
    if ('all' in ended) {
      this.known.clear();
    } else if ('sessionId' in ended) {
      this.known.delete(ended.sessionId);
    } else {
      const ofUser = [...this.known.entries()].filter(([, known]) => known.userId === ended.userId);
      for (const [sessionId] of ofUser) this.known.delete(sessionId);
    }
  }
}
