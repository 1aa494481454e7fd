import { BookOutlined, TeamOutlined } from '@ant-design/icons';
import type { TCourseSummary } from '@aiedu/contracts';
import { Card, Progress, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { statusColor, statusLabel } from './course-labels';

/** A course in a grid: cover, name, author, learners; progress when the viewer studies it. */
export function CourseCard({ course, progress, to }: { course: TCourseSummary; progress?: number; to: string }) {
  const { t } = useTranslation('course');
  return (
    <Card
      className="course-card"
      cover={
        course.thumbUrl ? (
          <img src={course.thumbUrl} alt="" className="course-card__cover" />
        ) : (
          <div className="course-card__cover course-card__cover--empty" aria-hidden="true">
            <BookOutlined />
          </div>
        )
      }
    >
      <h2 className="course-card__title">
        <Link to={to}>{course.name}</Link>
      </h2>
      <p className="course-card__meta">{t('detail.by', { name: course.ownerName })}</p>
      <p className="course-card__meta">
        <TeamOutlined aria-hidden="true" /> {t('centre.learners', { count: course.learners })}
        {course.status !== 'published' || course.takenDown ? (
          <Tag color={statusColor(course)} className="course-card__status">
            {statusLabel(t, course)}
          </Tag>
        ) : null}
      </p>
      {progress !== undefined && <Progress percent={progress} size="small" aria-label={t('detail.progress')} />}
    </Card>
  );
}
