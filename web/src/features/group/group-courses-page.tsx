import type { TGroupCourse, TGroupDetail } from '@aiedu/contracts';
import { Modal, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/dates';
import { LinkButton } from '../../ui/link-button';
import { confirmDanger } from '../admin/confirm';
import { groupCalls, useGroupCourses, useGroupMutation, useMyCourses } from './group-api';
import { coursePath } from './group-paths';
import { GroupShell } from './group-shell';
import { PagedTable, usePaging } from './paged-table';
import { SharePicker } from './share-picker';
import { STATUS_COLORS } from '../../ui/status-colors';

function ShareCourse({ group, shared }: { group: TGroupDetail; shared: Set<string> }) {
  const { t } = useTranslation('group');
  const mine = useMyCourses(true);
  const share = useGroupMutation(
    (courseId: string) => groupCalls.shareCourse(group.id, courseId),
    () => toast.success(t('share.courseShared')),
  );
  return (
    <SharePicker
      label={t('share.courseLabel')}
      loading={mine.isFetching}
      emptyText={t('share.noCourses')}
      options={(mine.data ?? []).filter((c) => !shared.has(c.id)).map((c) => ({ value: c.id, label: c.name }))}
      onShare={(id) => share.mutateAsync(id)}
    />
  );
}

/**
 * The courses shared with the group, each opening on its page (learners start one once it is published); members
 * share the courses they author, and the course's or the group's owner unshares one.
 */
function Courses({ group }: { group: TGroupDetail }) {
  const { t } = useTranslation('group');
  const [modal, modalHost] = Modal.useModal();
  const paging = usePaging();
  const courses = useGroupCourses(group.id, paging.query);
  const unshare = useGroupMutation((c: TGroupCourse) => groupCalls.unshareCourse(group.id, c.id));
  const confirmUnshare = (c: TGroupCourse) =>
    confirmDanger(modal, {
      title: t('share.unshareTitle', { name: c.name }),
      content: t('share.unshareCourseBody'),
      okText: t('share.unshare'),
      cancelText: t('common.cancel'),
      onOk: () => unshare.mutateAsync(c),
    });
  const shared = new Set((courses.data?.list ?? []).map((c) => c.id));
  return (
    <>
      {modalHost}
      <PagedTable<TGroupCourse>
        paging={paging}
        query={courses}
        rowKey="id"
        searchLabel={t('courses.search')}
        toolbar={<ShareCourse group={group} shared={shared} />}
        emptyText={t('courses.empty')}
        columns={[
          {
            title: t('courses.name'),
            key: 'name',
            render: (_, c) => (
              <div className="group-course-name">
                {c.coverUrl && <img src={c.coverUrl} alt="" className="group-course-name__cover" />}
                <div>
                  <Link to={coursePath(c.id)}>{c.name}</Link>
                  {c.description && <div className="group-muted group-clamp">{c.description}</div>}
                </div>
              </div>
            ),
          },
          { title: t('courses.owner'), dataIndex: 'ownerName' },
          {
            title: t('courses.state'),
            key: 'state',
            render: (_, c) =>
              c.published ? (
                <Tag color={STATUS_COLORS.success}>{t('courses.published')}</Tag>
              ) : (
                <Tag>{t('courses.draft')}</Tag>
              ),
          },
          { title: t('courses.updatedAt'), key: 'updated', render: (_, c) => formatDateTime(c.updatedAt) },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, c) => (
              <Space size={4} wrap>
                <LinkButton size="small" to={coursePath(c.id)}>
                  {t('courses.open')}
                </LinkButton>
                {c.canUnshare && (
                  <Button size="small" danger onClick={() => confirmUnshare(c)}>
                    {t('share.unshare')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}

export function GroupCoursesPage() {
  return <GroupShell part="courses">{(group) => <Courses group={group} />}</GroupShell>;
}
