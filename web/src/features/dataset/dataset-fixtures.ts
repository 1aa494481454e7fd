import { COURSE_API, GROUP_API, type TDatasetDetail, type TDatasetVersion, type TGroup } from '@aiedu/contracts';
import { ok, type FakeServer } from '../../test/fake-api';

/** A ready version of 3 files (the dataset tests' data). */
export function aVersion(overrides: Partial<TDatasetVersion> = {}): TDatasetVersion {
  return {
    id: '0192f7a0-0000-7000-8000-0000000000b1',
    number: 1,
    state: 'ready',
    failure: null,
    fileCount: 3,
    totalBytes: 3 * 1024 * 1024,
    zipName: 'flowers.zip',
    zipBytes: 2 * 1024 * 1024,
    annotationName: null,
    createdAt: '2026-11-20T10:00:00+08:00',
    readyAt: '2026-11-20T10:01:00+08:00',
    ...overrides,
  };
}

/** The caller's own private dataset, not published, with one ready version. */
export function aDataset(overrides: Partial<TDatasetDetail> = {}): TDatasetDetail {
  const version = aVersion();
  return {
    id: '0192f7a0-0000-7000-8000-0000000000d1',
    name: 'Iris flowers',
    description: 'Petal and sepal sizes of 150 flowers',
    explanation: '',
    tags: ['plants'],
    access: 'private',
    groupId: null,
    courseTag: '',
    annotationCategories: [],
    ownerId: 'u-1',
    ownerName: 'Ada',
    isOwner: true,
    canEdit: true,
    published: false,
    publishedAt: null,
    currentVersion: { id: version.id, number: 1, fileCount: 3, totalBytes: version.totalBytes },
    createdAt: '2026-11-20T10:00:00+08:00',
    updatedAt: '2026-11-21T10:00:00+08:00',
    versions: [version],
    ...overrides,
  };
}

export const ROBOTICS_CLUB: TGroup = {
  id: '0192f7a0-0000-7000-8000-0000000000g1',
  name: 'Robotics club',
  description: '',
  coverUrl: null,
  ownerId: 'u-2',
  ownerName: 'Grace',
  myRole: 'member',
  joinReview: false,
  memberCount: 12,
  projectCount: 0,
  courseCount: 0,
  datasetCount: 1,
  createdAt: '2026-11-01T10:00:00+08:00',
};

/** What the dataset screens ask besides the datasets: the caller's groups and the official course tags. */
export function answerSurroundings(server: FakeServer) {
  server.on(`GET ${GROUP_API.base}`, () => ok({ list: [ROBOTICS_CLUB], total: 1, page: 1, size: 100 }));
  server.on(`GET ${COURSE_API.filters}`, () =>
    ok({ directions: [], stages: [], difficulties: [], tags: [{ id: 't-1', name: 'AI basics' }] }),
  );
}
