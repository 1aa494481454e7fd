import { ArrowRightOutlined, CheckOutlined } from '@ant-design/icons';
import type { TScheduleTask } from '@aiedu/contracts';
import { Alert, Button, Skeleton } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../app/api-client';
import { recordSection, useLearnerSection } from '../course/course-api';
import { ResourceItem } from '../course/resource-item';
import { TaskQuiz } from '../course/task-quiz';
import { useScheduleTasks } from '../schedule/schedule-api';
import { SectionBody } from './section-body';

/** While an answer waits for the teacher's score, the student's results are read again this often. */
export const SCORE_CHECK_MS = 20_000;

/** Time spent on a section counts for the schedule's progress: it is recorded when the student leaves it. */
function useTimeOnSection(sectionId: string) {
  useEffect(() => {
    const opened = Date.now();
    return () => {
      const seconds = Math.min(3600, Math.round((Date.now() - opened) / 1000));
      if (seconds > 0) void recordSection(sectionId, { seconds }).catch(() => undefined);
    };
  }, [sectionId]);
}

/** The student's result of a task the schedule gave: waiting for a score, or the score and comment. */
function MyResult({ given }: { given: TScheduleTask | undefined }) {
  const { t } = useTranslation('classroom');
  const mine = given?.mine;
  return (
    <div role="status" aria-live="polite" className="classroom-result">
      {mine?.status === 'pending' && <Alert type="info" showIcon title={t('learn.awaitingScore')} />}
      {mine?.status === 'graded' && (
        <Alert
          type="success"
          showIcon
          title={t('learn.score', { score: mine.score ?? 0 })}
          description={mine.comment ? t('learn.comment', { comment: mine.comment }) : undefined}
        />
      )}
    </div>
  );
}

/**
 * The section a student's screen shows in the classroom: as in the course player (their answers go to the course,
 * which the schedule checks), with their results of the tasks the schedule gave.
 */
export function StudentSection({
  scheduleId,
  sectionId,
  nextSectionId,
  onNext,
  onAnswered,
}: {
  scheduleId: string;
  sectionId: string;
  /** The next section to move to alone (free mode); null while the teacher leads. */
  nextSectionId: string | null;
  onNext: (sectionId: string) => void;
  onAnswered: () => void;
}) {
  const { t } = useTranslation('classroom');
  const section = useLearnerSection(sectionId);
  const tasks = useScheduleTasks(scheduleId);
  useTimeOnSection(sectionId);
  const givenOf = (taskId: string) => tasks.data?.find((g) => g.taskId === taskId);
  const waiting = section.data?.tasks.some((task) => givenOf(task.id)?.mine?.status === 'pending') ?? false;
  const { refetch } = tasks;
  useEffect(() => {
    if (!waiting) return undefined;
    const timer = window.setInterval(() => void refetch(), SCORE_CHECK_MS);
    return () => window.clearInterval(timer);
  }, [waiting, refetch]);

  if (section.isPending) return <Skeleton active title={false} paragraph={{ rows: 8 }} />;
  if (section.isError || !section.data) {
    const message = section.error instanceof ApiError ? section.error.message : '';
    return <Alert type="error" showIcon title={t('learn.sectionFailed')} description={message} />;
  }
  const data = section.data;
  const markDone = async () => {
    await recordSection(sectionId, { completed: true });
    await section.refetch();
  };
  return (
    <SectionBody section={data} resource={(r) => <ResourceItem key={r.id} resource={r} />}>
      {data.tasks.map((task) => (
        <div key={task.id}>
          <TaskQuiz
            task={task}
            enrolled
            onSubmitted={() => {
              onAnswered();
              void refetch();
            }}
          />
          <MyResult given={givenOf(task.id)} />
        </div>
      ))}
      <footer className="course-section__footer">
        <Button size="large" icon={<CheckOutlined aria-hidden="true" />} onClick={markDone} disabled={data.completed}>
          {data.completed ? t('learn.completed') : t('learn.markDone')}
        </Button>
        {nextSectionId && (
          <Button type="primary" size="large" onClick={() => onNext(nextSectionId)}>
            {t('learn.next')} <ArrowRightOutlined aria-hidden="true" />
          </Button>
        )}
      </footer>
    </SectionBody>
  );
}
