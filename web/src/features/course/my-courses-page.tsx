import { ROLES } from '@aiedu/contracts';
import { Empty, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCurrentScreen } from '../../app/screen';
import { readSession } from '../../app/session';
import { MySchedules } from '../schedule/my-schedules';
import { CreateCourseAction } from './author-gate';
import { useMyStudy, useMyTeaching } from './course-api';
import { CourseCard } from './course-card';
import { courseEditPath, coursePath } from './course-paths';
import { JoinByCode } from './join-by-code';
import './course.css';

/** My courses: my study (joined courses with progress) and, for teachers, the courses they write. */
export function MyCoursesPage() {
  const { t } = useTranslation('course');
  const screen = useCurrentScreen() ?? 'myCourses';
  const roles = readSession().roles;
  const isTeacher = roles.includes(ROLES.teacher);
  const study = useMyStudy();
  const teaching = useMyTeaching(isTeacher);

  return (
    <div className="page course-mine">
      <h1>{t(screen, { ns: 'screens' })}</h1>
      {isTeacher && (
        <section aria-labelledby="my-teaching">
          <header className="course-mine__head">
            <h2 id="my-teaching">{t('my.teaching')}</h2>
            <CreateCourseAction />
          </header>
          {teaching.isPending ? (
            <Skeleton active title={false} />
          ) : teaching.data?.length ? (
            <ul className="course-grid">
              {teaching.data.map((course) => (
                <li key={course.id}>
                  <CourseCard course={course} to={courseEditPath(course.id)} />
                </li>
              ))}
            </ul>
          ) : (
            <Empty description={t('my.emptyTeaching')} />
          )}
        </section>
      )}
      <section aria-labelledby="my-study">
        <h2 id="my-study">{t('my.study')}</h2>
        {roles.includes(ROLES.student) && (
          <section aria-labelledby="my-schedules" className="schedule-my-section">
            <h3 id="my-schedules">{t('my.title', { ns: 'schedule' })}</h3>
            <MySchedules headingLevel={4} />
          </section>
        )}
        <JoinByCode />
        {study.isPending ? (
          <Skeleton active title={false} />
        ) : study.data?.length ? (
          <ul className="course-grid">
            {study.data.map((course) => (
              <li key={course.id}>
                <CourseCard course={course} progress={course.progress} to={coursePath(course.id)} />
              </li>
            ))}
          </ul>
        ) : (
          <Empty description={t('my.emptyStudy')} />
        )}
      </section>
    </div>
  );
}
