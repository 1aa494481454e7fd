import { GROUP_API, groupApi, type TGroup, type TGroupDetail } from '@aiedu/contracts';
import { ok, type FakeServer } from '../../test/fake-api';

/** A robotics club its owner (the signed-in teacher) reviews newcomers for. */
export const GROUP: TGroupDetail = {
  id: 'g-1',
  name: 'Robotics club',
  description: 'We build line-following robots.',
  coverUrl: null,
  ownerId: 'u-1',
  ownerName: 'Teacher One',
  myRole: 'owner',
  joinReview: true,
  memberCount: 3,
  projectCount: 2,
  courseCount: 1,
  datasetCount: 1,
  createdAt: '2026-11-20T00:00:00Z',
  invitation: { code: 'ABCD2345', enabled: true },
  pendingRequests: 2,
  canBatchRegister: true,
};

/** The same club as one of its members sees it. */
export const AS_MEMBER: TGroupDetail = {
  ...GROUP,
  ownerId: 'u-9',
  myRole: 'member',
  invitation: null,
  pendingRequests: 0,
  canBatchRegister: false,
};

export const SUMMARIES: TGroup[] = [
  GROUP,
  { ...AS_MEMBER, id: 'g-2', name: 'Chess team', memberCount: 12, projectCount: 0, courseCount: 3 },
];

export const page = <T>(list: T[]) => ok({ list, total: list.length, page: 1, size: 20 });

/** Answers the list and one group's calls. */
export function serveGroups(server: FakeServer, detail: TGroupDetail = GROUP) {
  const api = groupApi(detail.id);
  server.on(`GET ${GROUP_API.base}`, () => page(SUMMARIES));
  server.on(`GET ${GROUP_API.myRequests}`, () => page([]));
  server.on(`GET ${api.base}`, () => ok(detail));
  server.on(`GET ${api.members}`, () => page([]));
  server.on(`GET ${api.projects}`, () => page([]));
  server.on(`GET ${api.courses}`, () => page([]));
  server.on(`GET ${api.requests}`, () => page([]));
}
