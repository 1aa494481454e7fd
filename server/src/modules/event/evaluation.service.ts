import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { EVENT_LIMITS, type TEventEvaluation, type TEventTrack } from '@aiedu/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { eventEvaluations } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { findUnsafeText, unsafeTextError } from '../../platform/text-input.js';
import { organisedEvent, type EventRow } from './event-access.js';
import { sandboxName } from './evaluation.runner.js';

/** Evaluation files: kept in storage, never served to anyone; only the sandbox of a run gets copies. */
const FOLDER = 'event-evaluations';

type EvaluationRow = typeof eventEvaluations.$inferSelect;

/** The auto-scored track of an event, or 1004 (a judged track has no evaluation, runs or ladder). */
export function autoTrack(event: EventRow, trackId: string): TEventTrack {
  const track = event.tracks.find((t) => t.id === trackId);
  if (!track || track.kind !== 'auto') throw new AppError('NOT_FOUND');
  return track;
}

export async function findEvaluation(db: Db, eventId: string, trackId: string): Promise<EvaluationRow | null> {
  const [row] = await db
    .select()
    .from(eventEvaluations)
    .where(and(eq(eventEvaluations.eventId, eventId), eq(eventEvaluations.trackId, trackId)));
  return row ?? null;
}

const present = (row: EvaluationRow): TEventEvaluation => ({
  eventId: row.eventId,
  trackId: row.trackId,
  answersName: row.answersName,
  updatedAt: row.updatedAt.toISOString(),
});

export async function getEvaluation(ctx: AppContext, auth: AuthContext, eventId: string, trackId: string) {
  const event = await organisedEvent(ctx.db, auth, eventId);
  autoTrack(event, trackId);
  const row = await findEvaluation(ctx.db, event.id, trackId);
  return row ? present(row) : null;
}

/** A stream that fails with FILE_TOO_LARGE at its end when the parser cut the file at its limit. */
function checked(file: Readable & { truncated?: boolean }, maxBytes: number): Readable {
  async function* bytes() {
    let size = 0;
    for await (const chunk of file as AsyncIterable<Buffer>) {
      size += chunk.length;
      yield chunk;
    }
    if (file.truncated || size > maxBytes) throw new AppError('FILE_TOO_LARGE');
  }
  return Readable.from(bytes(), { objectMode: false });
}

/**
 * Reads the two files of the request (`script` ≤ 1 MB, `answers` ≤ 50 MB) straight into storage; answers their keys.
 * A request that fails part way leaves nothing stored.
 */
async function storeParts(ctx: AppContext, request: FastifyRequest, eventId: string) {
  const stored: { script?: string; answers?: string; answersName?: string } = {};
  const limits = { script: EVENT_LIMITS.scriptBytes, answers: EVENT_LIMITS.answersBytes } as const;
  try {
    // Two named files, each with its own limit: the platform's one-file reader cannot take them.
    // eslint-disable-next-line no-restricted-syntax -- each file's own limit is held by `checked` and storage's maxBytes
    const parts = request.parts({ limits: { files: 2, fileSize: EVENT_LIMITS.answersBytes } });
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      const field = part.fieldname;
      if ((field !== 'script' && field !== 'answers') || stored[field]) {
        part.file.resume();
        throw new AppError('BAD_REQUEST', { reason: 'files', message: 'expected the fields script and answers' });
      }
      const unsafe = findUnsafeText({ filename: part.filename }, 'body');
      if (unsafe) {
        part.file.resume();
        throw unsafeTextError(unsafe);
      }
      const key =
        field === 'script'
          ? `${FOLDER}/${eventId}/${randomUUID()}.py`
          : `${FOLDER}/${eventId}/${randomUUID()}-${sandboxName('answers', part.filename)}`;
      await ctx.storage.put(key, checked(part.file, limits[field]), { maxBytes: limits[field] });
      stored[field] = key;
      if (field === 'answers') stored.answersName = part.filename.slice(0, 200) || 'answers';
    }
    return stored;
  } catch (error) {
    for (const key of [stored.script, stored.answers]) if (key) await ctx.storage.delete(key).catch(() => undefined);
    throw error;
  }
}

/**
 * The organisers set a track's evaluation: the script and the answer set (both the first time, either one later).
 * The files replaced are deleted once the new ones are recorded.
 */
export async function putEvaluation(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  eventId: string,
  trackId: string,
): Promise<TEventEvaluation> {
  const event = await organisedEvent(ctx.db, auth, eventId);
  autoTrack(event, trackId);
  if (!request.isMultipart()) throw new AppError('BAD_REQUEST', { reason: 'multipart' });
  const stored = await storeParts(ctx, request, event.id);
  const discard = async () => {
    for (const key of [stored.script, stored.answers]) if (key) await ctx.storage.delete(key).catch(() => undefined);
  };
  let replaced: string[] = [];
  let row: EvaluationRow;
  try {
    row = await ctx.db.transaction(async (tx) => {
      const current = await findEvaluation(tx, event.id, trackId);
      if (!current && (!stored.script || !stored.answers)) {
        throw new AppError('BAD_REQUEST', {
          reason: 'files',
          message: 'the first evaluation needs script and answers',
        });
      }
      if (!stored.script && !stored.answers) throw new AppError('BAD_REQUEST', { reason: 'files' });
      const values = {
        scriptKey: stored.script ?? current!.scriptKey,
        answersKey: stored.answers ?? current!.answersKey,
        answersName: stored.answersName ?? current!.answersName,
        updatedBy: auth.userId,
        updatedAt: ctx.now(),
      };
      replaced = current
        ? [current.scriptKey, current.answersKey].filter((k) => k !== values.scriptKey && k !== values.answersKey)
        : [];
      const [saved] = current
        ? await tx.update(eventEvaluations).set(values).where(eq(eventEvaluations.id, current.id)).returning()
        : await tx
            .insert(eventEvaluations)
            .values({ eventId: event.id, trackId, ...values, createdAt: ctx.now() })
            .returning();
      await writeAudit(tx, request, {
        module: 'event',
        operation: 'evaluation',
        params: { eventId: event.id, trackId, script: !!stored.script, answersName: stored.answersName ?? null },
        customerId: event.customerId,
      });
      return saved!;
    });
  } catch (error) {
    await discard();
    throw error;
  }
  for (const key of replaced) await ctx.storage.delete(key).catch(() => undefined);
  return present(row);
}
