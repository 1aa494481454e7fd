import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { eventJudges, eventScores, eventWorks } from '../../platform/db/schema/index.js';
import { moveWork } from './work.service.js';

/** IN_REVIEW → AUDITED once every judge of the work's group in its round has a submitted score of it there. */
export async function auditWhenComplete(tx: Db, workId: string, now: Date) {
  const [work] = await tx.select().from(eventWorks).where(eq(eventWorks.id, workId));
  if (!work || work.state !== 'IN_REVIEW' || work.judgeGroup === null) return;
  const judges = await tx
    .select({ userId: eventJudges.userId })
    .from(eventJudges)
    .where(
      and(
        eq(eventJudges.eventId, work.eventId),
        eq(eventJudges.round, work.reviewRound),
        eq(eventJudges.groupNo, work.judgeGroup),
      ),
    );
  const done = await tx
    .select({ userId: eventScores.judgeUserId })
    .from(eventScores)
    .where(
      and(eq(eventScores.workId, workId), eq(eventScores.round, work.reviewRound), eq(eventScores.state, 'submitted')),
    );
  const submitted = new Set(done.map((d) => d.userId));
  if (judges.length > 0 && judges.every((j) => submitted.has(j.userId))) {
    await moveWork(tx, work, 'AUDITED', {}, now);
  }
}
