import { EditOutlined, HistoryOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Progress, Skeleton, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useLoggedIn } from '../../app/session';
import { openLoginDialog } from '../../app/sign-dialogs';
import { LinkButton } from '../../ui/link-button';
import { courseKeys, joinCourse, useCourseDetail } from './course-api';
import { CourseCatalogue } from './course-catalogue';
import { CourseError } from './course-error';
import { statusColor, statusLabel } from './course-labels';
import { courseEditPath, courseRecordPath } from './course-paths';
import { SectionView } from './section-view';
import './course.css';

/** Course detail and player: the catalogue on the left, the open section in the middle, progress on top. */
export function CourseDetailPage() {
  const { t } = useTranslation('course');
  const { courseId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const client = useQueryClient();
  const loggedIn = useLoggedIn();
  const detail = useCourseDetail(courseId);

  if (detail.isPending) {
    return (
      <div className="page">
        <Skeleton active title={false} paragraph={{ rows: 10 }} />
      </div>
    );
  }
  if (detail.isError || !detail.data) return <CourseError error={detail.error} />;
  const course = detail.data;
  const canLearn = course.enrolled || course.canEdit;
  const first = course.catalogue.flatMap((c) => c.sections)[0]?.id ?? null;
  const current = canLearn ? (params.get('section') ?? null) : null;
  const open = (id: string) => setParams({ section: id });
  const join = async () => {
    if (!loggedIn) {
      openLoginDialog();
      return;
    }
    client.setQueryData(courseKeys.detail(courseId), await joinCourse(courseId));
  };

  return (
    <div className="page course-player">
      <header className="course-player__head">
        <div className="course-player__titles">
          <h1>{course.name}</h1>
          <p className="course-player__meta">
            {t('detail.by', { name: course.ownerName })}
            {course.learnerVersionNumber !== null && (
              <span> · {t('detail.version', { version: course.learnerVersionNumber })}</span>
            )}
            <Tag color={statusColor(course)} className="course-player__status">
              {statusLabel(t, course)}
            </Tag>
          </p>
          {course.description && <p className="course-player__description">{course.description}</p>}
        </div>
        <div className="course-player__actions">
          {course.enrolled && (
            <div className="course-player__progress">
              <span id="course-progress-label">{t('detail.progress')}</span>
              <Progress percent={course.progress} aria-labelledby="course-progress-label" />
            </div>
          )}
          {!course.enrolled && !course.canEdit && (
            <Button type="primary" size="large" onClick={join}>
              {t('join.joinCourse')}
            </Button>
          )}
          {course.enrolled && !current && first && (
            <Button type="primary" size="large" onClick={() => open(first)}>
              {t('detail.start')}
            </Button>
          )}
          {course.enrolled && (
            <LinkButton size="large" to={courseRecordPath(course.id)} icon={<HistoryOutlined />}>
              {t('detail.record')}
            </LinkButton>
          )}
          {course.canEdit && (
            <LinkButton size="large" to={courseEditPath(course.id)} icon={<EditOutlined />}>
              {t('detail.edit')}
            </LinkButton>
          )}
        </div>
      </header>
      <div className="course-player__body">
        <CourseCatalogue catalogue={course.catalogue} current={current} onOpen={open} disabled={!canLearn} />
        <div className="course-player__content">
          {current ? (
            <SectionView courseId={course.id} sectionId={current} enrolled={course.enrolled} onNext={open} />
          ) : (
            <p className="course-player__hint">{canLearn ? t('detail.chooseSection') : t('detail.notJoined')}</p>
          )}
        </div>
      </div>
    </div>
  );
}
