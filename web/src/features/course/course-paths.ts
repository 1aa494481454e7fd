/** Addresses of the course screens (the route table registers the same patterns). */
export const coursePath = (id: string) => `/pjedu/courses/${id}`;
export const courseEditPath = (id: string) => `/pjedu/courses/${id}/edit`;
export const courseRecordPath = (id: string) => `/pjedu/courses/${id}/record`;
export const NEW_COURSE_PATH = courseEditPath('new');
