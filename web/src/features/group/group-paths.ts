import { projectEditorPath } from '../../app/paths';
import { coursePath } from '../course/course-paths';

/** Addresses of the group screens (the route table registers the same patterns). */
export const GROUPS_PATH = '/pjedu/groups';
export const groupPath = (id: string) => `${GROUPS_PATH}/${id}`;

/** A group's pages below its detail, in the order its navigation shows them; the last three are the owner's. */
export const GROUP_PARTS = [
  'members',
  'projects',
  'courses',
  'datasets',
  'batch-register',
  'review',
  'invitation',
] as const;
export type GroupPart = (typeof GROUP_PARTS)[number];
export const OWNER_PARTS: readonly GroupPart[] = ['batch-register', 'review', 'invitation'];
export const groupPartPath = (id: string, part: GroupPart) => `${groupPath(id)}/${part}`;

/** The groups page with the join dialog open on a code: the link an owner hands out beside the code. */
export const joinLink = (code: string) => `${window.location.origin}${GROUPS_PATH}?join=${encodeURIComponent(code)}`;

export { coursePath, projectEditorPath };
