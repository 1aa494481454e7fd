import { describe, expect, it } from 'vitest';
import { testClock } from '../../test/factories.js';
import { SESSION_RECHECK_MS, SessionCheck, type SessionRefusal } from './session-check.js';
import { SessionEvents } from './session-events.js';
import type { AuthContext } from './tokens.js';

const caller = (sessionId: string, userId = 'user-1'): AuthContext => ({
  userId,
  customerId: null,
  roles: [],
  sessionId,
  mustChangePassword: false,
});

/** A check whose database is a table of answers, counting the questions it is asked. */
function checkWith(answers: Record<string, SessionRefusal | null> = {}) {
  const clock = testClock();
  const events = new SessionEvents();
  const asked: string[] = [];
  const check = new SessionCheck(
    async (auth) => {
      asked.push(auth.sessionId);
      return answers[auth.sessionId] ?? null;
    },
    events,
    clock.now,
  );
  return { check, events, clock, asked, answers };
}

describe('the check that a sign-in still stands', () => {
  it(`answers from memory for ${SESSION_RECHECK_MS} ms after the database said so, then asks again`, async () => {
    const { check, clock, asked, answers } = checkWith();
    expect(await check.refusal(caller('s1'))).toBeNull();
    clock.advance(SESSION_RECHECK_MS - 1);
    expect(await check.refusal(caller('s1'))).toBeNull();
    expect(asked).toEqual(['s1']);

    // Ended where this process was not told: refused as soon as the time is up.
    answers.s1 = 'SESSION_REPLACED';
    clock.advance(1);
    expect(await check.refusal(caller('s1'))).toBe('SESSION_REPLACED');
    expect(asked).toEqual(['s1', 's1']);
  });

  it('asks again at once for a session, a user or everyone it is told ended', async () => {
    const { check, events, asked, answers } = checkWith();
    for (const s of ['s1', 's2', 's3']) await check.refusal(caller(s, s === 's3' ? 'user-2' : 'user-1'));
    expect(asked).toEqual(['s1', 's2', 's3']);

    answers.s1 = 'SESSION_REPLACED';
    events.ended({ sessionId: 's1' });
    expect(await check.refusal(caller('s1'))).toBe('SESSION_REPLACED');
    expect(await check.refusal(caller('s2'))).toBeNull();
    expect(asked).toEqual(['s1', 's2', 's3', 's1']);

    answers.s2 = 'SESSION_REPLACED';
    events.ended({ userId: 'user-1' });
    expect(await check.refusal(caller('s2'))).toBe('SESSION_REPLACED');
    expect(await check.refusal(caller('s3', 'user-2'))).toBeNull();
    expect(asked).toEqual(['s1', 's2', 's3', 's1', 's2']);

    answers.s3 = 'ACCOUNT_DISABLED';
    events.ended({ all: true });
    expect(await check.refusal(caller('s3', 'user-2'))).toBe('ACCOUNT_DISABLED');
  });

  it('asks once for requests that come together', async () => {
    const { check, asked } = checkWith();
    const answers = await Promise.all([1, 2, 3].map(() => check.refusal(caller('s1'))));
    expect(answers).toEqual([null, null, null]);
    expect(asked).toEqual(['s1']);
  });

  it('keeps no answer asked for before an end it was told of, and lets later requests ask afresh', async () => {
    const events = new SessionEvents();
    const replies: ((refusal: SessionRefusal | null) => void)[] = [];
    const check = new SessionCheck(
      () => new Promise<SessionRefusal | null>((resolve) => replies.push(resolve)),
      events,
      testClock().now,
    );
    // The database read the session as standing just before a logout committed, and answers after it.
    const early = check.refusal(caller('s1'));
    events.ended({ sessionId: 's1' });
    const late = check.refusal(caller('s1'));
    expect(replies).toHaveLength(2);
    replies[0]!(null);
    replies[1]!('SESSION_REPLACED');
    expect(await early).toBeNull();
    expect(await late).toBe('SESSION_REPLACED');

    // The answer given before the end was not kept: the next request is told what the later one was.
    const next = check.refusal(caller('s1'));
    expect(replies).toHaveLength(2);
    expect(await next).toBe('SESSION_REPLACED');
  });
});
