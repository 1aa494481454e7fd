import type { TScheduleCourse, TScheduleDetail } from '@aiedu/contracts';
import { Button, Card, Empty, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../ui/link-button';
import { confirmDanger } from '../admin/confirm';
import { scheduleCalls, useScheduleMutation } from './schedule-api';
import { CourseStateTag } from './schedule-labels';

/**
 * The courses as the schedule pins them, each with its sections in reading order. A newer published version is
 * offered to the teachers: moving there moves the class (its tasks already given keep their answers).
 */
export function ScheduleCourses({ schedule }: { schedule: TScheduleDetail }) {
  const { t } = useTranslation('schedule');
  const [modal, modalHost] = Modal.useModal();
  const move = useScheduleMutation((course: TScheduleCourse) =>
    scheduleCalls.update(schedule.id, {
      courses: schedule.courses.map((c) => ({
        courseId: c.courseId,
        versionId: c.courseId === course.courseId ? course.latestVersionId! : c.versionId,
      })),
    }),
  );
  const canMove = (c: TScheduleCourse) =>
    schedule.role === 'teacher' &&
    schedule.status !== 'finished' &&
    c.state === 'open' &&
    c.latestVersionId !== null &&
    c.latestVersionId !== c.versionId;
  const offerMove = (c: TScheduleCourse) =>
    confirmDanger(modal, {
      title: t('courses.moveTitle', { name: c.name, version: c.latestVersionNumber }),
      content: t('courses.moveBody'),
      okText: t('courses.move', { version: c.latestVersionNumber }),
      cancelText: t('common.cancel', { ns: 'admin' }),
      onOk: () => move.mutateAsync(c),
    });
  if (schedule.courses.length === 0) return <Empty description={t('courses.empty')} />;
  return (
    <div className="schedule-course-list">
      {modalHost}
      {schedule.courses.map((c) => (
        <Card
          key={c.courseId}
          title={
            <h2 className="schedule-card-title">
              {c.name} <span className="schedule-muted">{t('version', { version: c.versionNumber ?? '' })}</span>{' '}
              <CourseStateTag state={c.state} />
            </h2>
          }
          extra={
            <>
              {canMove(c) && (
                <Button onClick={() => offerMove(c)}>{t('courses.move', { version: c.latestVersionNumber })}</Button>
              )}
              <LinkButton to={`/pjedu/courses/${c.courseId}`}>{t('courses.open')}</LinkButton>
            </>
          }
        >
          {c.sections.length === 0 ? (
            <p className="schedule-muted">{t('courses.noSections')}</p>
          ) : (
            <ol className="schedule-sections">
              {c.sections.map((section) => (
                <li key={section.id}>
                  <span className="schedule-muted">{section.chapterTitle}</span> · {section.title}
                  {section.tasks.length > 0 && (
                    <span className="schedule-muted"> ({t('courses.taskCount', { count: section.tasks.length })})</span>
                  )}
                </li>
              ))}
            </ol>
          )}
        </Card>
      ))}
    </div>
  );
}
