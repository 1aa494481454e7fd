import { COURSE_API } from '@aiedu/contracts';

/**
 * The calls of the course administration screens (docs/api.md, "Courses"): the catalogue is the super
 * administrators'; the list of courses is every institution administrator's, within their scope.
 */
export const CATALOGUE_API = {
  adminCourses: COURSE_API.admin,
  adminExperiments: COURSE_API.adminExperiments,
  takenDown: (id: string) => `${COURSE_API.base}/${id}/taken-down`,
  categories: `${COURSE_API.base}/categories`,
  difficulties: `${COURSE_API.base}/difficulties`,
  tags: `${COURSE_API.base}/tags`,
  packages: `${COURSE_API.base}/packages`,
  packageCustomers: (id: string) => `${COURSE_API.base}/packages/${id}/customers`,
  /** Course search for a package: the centre, where super administrators find every course that is not private. */
  courseSearch: COURSE_API.centre,
  customerSearch: '/api/v1/admin_super/organizes',
} as const;
