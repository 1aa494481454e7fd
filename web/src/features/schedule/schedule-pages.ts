/** The teaching schedule screens, loaded together as one chunk when the first of them opens. */
export { ScheduleDetailPage } from './schedule-detail-page';
export { SchedulesPage } from './schedules-page';
export { ScheduleStudentsPage } from './schedule-students-page';
