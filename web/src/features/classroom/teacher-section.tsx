import { DownloadOutlined, FileOutlined } from '@ant-design/icons';
import type { TLearnerSection, TResource, TScheduleTask } from '@aiedu/contracts';
import { Button, Skeleton, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { scheduleCalls, useScheduleMutation, useScheduleTasks } from '../schedule/schedule-api';
import { SubmissionsDrawer } from '../schedule/submissions-drawer';
import { useResourceLink, useTeacherSection } from './classroom-api';
import type { SectionPanelProps } from './classroom-outline';
import { SectionBody } from './section-body';

/** A resource for the teacher: a video plays in place for the projector; anything may be downloaded. */
function TeacherResource({ scheduleId, resource }: { scheduleId: string; resource: TResource }) {
  const { t } = useTranslation('classroom');
  const link = useResourceLink(scheduleId, resource.id).data;
  const video = resource.mime.startsWith('video/');
  return (
    <li className="course-resource">
      <p className="course-resource__name">
        <FileOutlined aria-hidden="true" /> {resource.name}
      </p>
      {link?.preview && video && (
        <video controls preload="metadata" src={link.url} className="course-resource__video" aria-label={resource.name}>
          <track kind="captions" />
        </video>
      )}
      {link && (
        <a href={link.downloadUrl} download={resource.name} className="course-resource__download">
          <DownloadOutlined aria-hidden="true" /> {t('section.download', { name: resource.name })}
        </a>
      )}
    </li>
  );
}

type Task = TLearnerSection['tasks'][number];

/**
 * A task as the teacher meets it in the lesson: its questions, and the class's answers to score once it was given
 * in the schedule; a task not given yet is given here (no due time; the schedule page sets one).
 */
function TeacherTask({
  scheduleId,
  task,
  given,
  readOnly,
}: {
  scheduleId: string;
  task: Task;
  given: TScheduleTask | undefined;
  readOnly: boolean;
}) {
  const { t } = useTranslation('classroom');
  const [scoring, setScoring] = useState(false);
  const give = useScheduleMutation(() => scheduleCalls.assign(scheduleId, { taskId: task.id, dueAt: null }));
  return (
    <section className="classroom-task" aria-labelledby={`classroom-task-${task.id}`}>
      <h3 id={`classroom-task-${task.id}`}>{task.title}</h3>
      <ol className="classroom-task__questions">
        {task.questions.map((q) => (
          <li key={q.id}>
            <Tag>{t(`section.questionTypes.${q.type}`)}</Tag> {q.prompt}
          </li>
        ))}
      </ol>
      {/* Keys: the answers' button is a control of its own, not the gift's button reused with its loading state. */}
      {given ? (
        <p key="given" className="classroom-task__given">
          <span>
            {t('section.answered', { count: given.counts?.submitted ?? 0, total: given.counts?.students ?? 0 })}
          </span>
          <Button onClick={() => setScoring(true)}>{t('section.answers')}</Button>
        </p>
      ) : (
        !readOnly && (
          <p key="give" className="classroom-task__given">
            <span className="classroom-muted">{t('section.notGiven')}</span>
            <Button loading={give.isPending} onClick={() => give.mutate(undefined)}>
              {t('section.give')}
            </Button>
          </p>
        )
      )}
      {scoring && given && <SubmissionsDrawer task={given} readOnly={readOnly} onClose={() => setScoring(false)} />}
    </section>
  );
}

/** The section the teacher shows, as its students see it, with its tasks' answers to score. */
export function TeacherSection({ scheduleId, sectionId, readOnly }: SectionPanelProps) {
  const section = useTeacherSection(scheduleId, sectionId);
  const tasks = useScheduleTasks(scheduleId);
  if (section.isPending) return <Skeleton active title={false} paragraph={{ rows: 8 }} />;
  if (!section.data) return null;
  return (
    <SectionBody
      section={section.data}
      resource={(r) => <TeacherResource key={r.id} scheduleId={scheduleId} resource={r} />}
    >
      {section.data.tasks.map((task) => (
        <TeacherTask
          key={task.id}
          scheduleId={scheduleId}
          task={task}
          given={tasks.data?.find((g) => g.taskId === task.id)}
          readOnly={readOnly}
        />
      ))}
    </SectionBody>
  );
}
