import type { TCourseSummary } from '@aiedu/contracts';

/** A published course as the centre lists it; tests override what they look at. */
export function courseSummary(overrides: Partial<TCourseSummary> = {}): TCourseSummary {
  return {
    id: 'c-1',
    name: 'Robots for beginners',
    description: '',
    coverUrl: null,
    thumbUrl: null,
    publicScope: 'public',
    directionId: null,
    stageId: null,
    difficultyId: null,
    tags: [],
    levels: ['any'],
    status: 'published',
    takenDown: false,
    ownerName: 'Teacher One',
    learners: 12,
    versionNumber: 1,
    publishedAt: '2026-11-22T09:00:00+08:00',
    ...overrides,
  };
}

/** The same course as a learner enrolled in it sees it: one chapter holding section `s-1`, not yet completed. */
export function enrolledCourse(overrides: Partial<TCourseSummary> = {}, taskCount = 1) {
  return {
    ...courseSummary(overrides),
    enrolled: true,
    canEdit: false,
    learnerVersionNumber: 1,
    progress: 0,
    catalogue: [
      {
        id: 'ch-1',
        title: 'Chapter 1',
        sections: [{ id: 's-1', title: 'Iris', taskCount, visited: true, completed: false }],
      },
    ],
  };
}
