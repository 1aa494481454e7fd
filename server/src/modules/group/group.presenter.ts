import type { TGroup, TGroupDetail } from '@aiedu/contracts';
import type { FileStorage } from '../../platform/storage/storage.js';
import type { GroupListRow } from './group.repository.js';

const URL_TTL = 24 * 3600;

/** What a group holds, counted by the modules that own it. */
export interface GroupCounts {
  projects: number;
  courses: number;
  datasets: number;
}

export function presentGroup(storage: FileStorage, row: GroupListRow, counts: GroupCounts): TGroup {
  const { group } = row;
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    coverUrl: group.coverKey ? storage.signedUrl(group.coverKey, { expiresInSeconds: URL_TTL }) : null,
    ownerId: group.ownerId,
    ownerName: row.ownerName,
    myRole: row.myRole,
    joinReview: group.joinReview,
    memberCount: row.memberCount,
    projectCount: counts.projects,
    courseCount: counts.courses,
    datasetCount: counts.datasets,
    createdAt: group.createdAt.toISOString(),
  };
}

/** The detail: the invitation code and the requests waiting are shown to the owner only. */
export function presentGroupDetail(
  storage: FileStorage,
  row: GroupListRow,
  counts: GroupCounts,
  owner: { pendingRequests: number; canBatchRegister: boolean } | null,
): TGroupDetail {
  return {
    ...presentGroup(storage, row, counts),
    invitation: owner ? { code: row.group.inviteCode, enabled: row.group.inviteEnabled } : null,
    pendingRequests: owner?.pendingRequests ?? 0,
    canBatchRegister: owner?.canBatchRegister ?? false,
  };
}

export const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A join request as answered: its times as ISO text. */
export const presentJoinRequest = <T extends { createdAt: Date; decidedAt: Date | null }>(row: T) => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  decidedAt: iso(row.decidedAt),
});
