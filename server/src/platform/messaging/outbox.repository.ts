import { count, desc, ilike, or } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { outbox } from '../db/schema/index.js';
import { likeText } from '../db/like.js';

export async function listOutbox(db: Db, query: { page: number; size: number; keyword?: string | undefined }) {
  const where = query.keyword
    ? or(ilike(outbox.target, likeText(query.keyword)), ilike(outbox.body, likeText(query.keyword)))
    : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(outbox)
      .where(where)
      .orderBy(desc(outbox.createdAt), desc(outbox.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    db.select({ n: count() }).from(outbox).where(where),
  ]);
  return {
    list: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    total: total?.n ?? 0,
    page: query.page,
    size: query.size,
  };
}
