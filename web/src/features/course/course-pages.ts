/** The course screens, loaded together as one chunk when the first of them opens. */
export { CourseCentrePage } from './course-centre-page';
export { CourseDetailPage } from './course-detail-page';
export { CourseEditorPage } from './course-editor-page';
export { LearningRecordPage } from './learning-record-page';
export { MyCoursesPage } from './my-courses-page';
