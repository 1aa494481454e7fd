import type { TCourseVersion } from '@aiedu/contracts';
import { Tag } from 'antd';
import { Table } from '../../ui/table';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { useCourseVersions } from './course-api';

type State = 'editing' | 'current' | 'earlier' | 'abandoned';

const stateOf = (v: TCourseVersion): State =>
  v.editing ? 'editing' : v.current ? 'current' : v.status === 'abandoned' ? 'abandoned' : 'earlier';

/** Solid tag colours dark enough for white text (at least 4.5:1), as the course states' are. */
const COLORS: Record<State, string> = {
  editing: '#1f5fcc',
  current: '#237804',
  earlier: '#595959',
  abandoned: '#595959',
};

/**
 * The versions of a course, newest first: the one being written, the current one (what new learners get), earlier
 * ones that learners may still be on, and abandoned revisions.
 */
export function CourseVersions({ courseId }: { courseId: string }) {
  const { t } = useTranslation('course');
  const versions = useCourseVersions(courseId);
  return (
    <>
      <p className="course-versions__hint">{t('versions.hint')}</p>
      <Table<TCourseVersion>
        rowKey="id"
        size="small"
        pagination={false}
        loading={versions.isPending}
        dataSource={versions.data ?? []}
        columns={[
          {
            title: t('versions.version'),
            key: 'number',
            render: (_, v) =>
              v.number === null ? t('versions.unnumbered') : t('detail.version', { version: v.number }),
          },
          { title: t('versions.name'), dataIndex: 'name' },
          {
            title: t('versions.state'),
            key: 'state',
            render: (_, v) => <Tag color={COLORS[stateOf(v)]}>{t(`versions.states.${stateOf(v)}`)}</Tag>,
          },
          { title: t('versions.learners'), dataIndex: 'learners' },
          {
            title: t('versions.publishedAt'),
            key: 'publishedAt',
            render: (_, v) => (v.publishedAt ? formatDateTime(v.publishedAt) : t('versions.notPublished')),
          },
        ]}
      />
    </>
  );
}
