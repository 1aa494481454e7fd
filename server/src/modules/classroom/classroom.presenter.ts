import type { TClassroomSession } from '@aiedu/contracts';
import type { SessionRow } from './classroom.repository.js';

export function presentSession(row: SessionRow): TClassroomSession {
  return {
    id: row.id,
    status: row.status,
    mode: row.mode,
    sectionId: row.sectionId,
    revision: row.revision,
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    startedBy: row.startedBy,
  };
}
