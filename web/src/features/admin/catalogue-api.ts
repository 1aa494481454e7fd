import { COURSE_API } from '@aiedu/contracts';

/** The calls of the course catalogue screens (docs/api.md, "Courses"): super administrators only. */
export const CATALOGUE_API = {
  categories: `${COURSE_API.base}/categories`,
  difficulties: `${COURSE_API.base}/difficulties`,
  tags: `${COURSE_API.base}/tags`,
  packages: `${COURSE_API.base}/packages`,
  packageCustomers: (id: string) => `${COURSE_API.base}/packages/${id}/customers`,
  /** Course search for a package: the centre, where super administrators find every course that is not private. */
  courseSearch: COURSE_API.centre,
  customerSearch: '/api/v1/admin_super/organizes',
} as const;
