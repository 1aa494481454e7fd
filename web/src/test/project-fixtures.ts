import type { TProject, TRuntimeStatus } from '@aiedu/contracts';

/** A project as the API answers it: the owner's own, editable, with nothing set beyond its name. */
export function aProject(overrides: Partial<TProject> = {}): TProject {
  return {
    id: '0192f7a0-0000-7000-8000-0000000000aa',
    ownerId: 'u1',
    ownerName: 'Ada',
    name: 'Weather charts',
    description: '',
    tags: [],
    access: 'private',
    type: '',
    runtimeType: 'BASIC',
    environment: 'python',
    framework: '',
    labelFile: '',
    courseTag: '',
    direction: '',
    studySection: '',
    tool: '',
    forkedFrom: null,
    canEdit: true,
    isOwner: true,
    reviewing: false,
    latestVersion: null,
    forks: 0,
    createdAt: '2026-11-22T10:00:00+08:00',
    updatedAt: '2026-11-22T10:00:00+08:00',
    ...overrides,
  };
}

/** A Basic runtime's status with a full weekly balance; stopped by its user unless told otherwise. */
export function aRuntime(overrides: Partial<TRuntimeStatus> = {}): TRuntimeStatus {
  return {
    state: 'STOPPED',
    runtimeType: 'BASIC',
    startedAt: null,
    startedBy: 'u1',
    stopReason: 'user',
    proxyPath: null,
    balance: {
      runtimeType: 'BASIC',
      cpu: 1,
      memoryMb: 1024,
      weeklyMinutes: 600,
      usedMinutes: 0,
      remainingMinutes: 600,
      resetsAt: '2026-11-30T00:00:00+08:00',
    },
    ...overrides,
  };
}
