import { guarded } from './admin-shell';
import { CourseCategoriesPage, CourseDifficultiesPage, CourseTagsPage } from './catalogue-entries-page';
import { CoursePackagesPage } from './course-packages-page';

/** The course catalogue screens of super administrators, one chunk loaded when the first of them opens. */
export const CATALOGUE_PAGES = {
  CourseCategoriesPage: guarded('courseCategories', CourseCategoriesPage),
  CourseDifficultiesPage: guarded('courseDifficulties', CourseDifficultiesPage),
  CourseTagsPage: guarded('courseTags', CourseTagsPage),
  CoursePackagesPage: guarded('coursePackages', CoursePackagesPage),
};
