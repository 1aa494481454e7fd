import { PATHS } from '../../app/paths';

/** The live classroom of a schedule (route `classroom`): the teach view or the learn view. */
export const classroomPath = (scheduleId: string) => `${PATHS.schedules}/${scheduleId}/classroom`;
