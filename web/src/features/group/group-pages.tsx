import { GroupBatchRegisterPage } from './group-batch-register-page';
import { GroupCoursesPage } from './group-courses-page';
import { GroupDatasetsPage } from './group-datasets-page';
import { GroupDetailPage } from './group-detail-page';
import { GroupInvitationPage } from './group-invitation-page';
import { GroupMembersPage } from './group-members-page';
import { GroupProjectsPage } from './group-projects-page';
import { GroupReviewPage } from './group-review-page';
import { GroupsPage } from './groups-page';

/** The group screens: the list, a group's detail and its members, projects, courses, datasets, batch registration, review and invitation code. */
export const GROUP_PAGES = {
  GroupsPage,
  GroupDetailPage,
  GroupMembersPage,
  GroupProjectsPage,
  GroupCoursesPage,
  GroupDatasetsPage,
  GroupBatchRegisterPage,
  GroupReviewPage,
  GroupInvitationPage,
};
