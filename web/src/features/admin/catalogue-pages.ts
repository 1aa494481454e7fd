import { AdminCoursesPage } from './admin-courses-page';
import { AdminExperimentsPage } from './admin-experiments-page';
import { guarded } from './admin-shell';
import { CourseCategoriesPage, CourseDifficultiesPage, CourseTagsPage } from './catalogue-entries-page';
import { CoursePackagesPage } from './course-packages-page';

/**
 * The course screens of the administration (the courses of the administrator's scope, and the super
 * administrators' catalogue), one chunk loaded when the first of them opens.
 */
export const CATALOGUE_PAGES = {
  AdminCoursesPage: guarded('adminCourses', AdminCoursesPage),
  AdminExperimentsPage: guarded('adminExperiments', AdminExperimentsPage),
  CourseCategoriesPage: guarded('courseCategories', CourseCategoriesPage),
  CourseDifficultiesPage: guarded('courseDifficulties', CourseDifficultiesPage),
  CourseTagsPage: guarded('courseTags', CourseTagsPage),
  CoursePackagesPage: guarded('coursePackages', CoursePackagesPage),
};
