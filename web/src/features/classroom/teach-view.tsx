import type { TClassroom } from '@aiedu/contracts';
import { Alert, Empty } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../ui/link-button';
import { schedulePath } from '../schedule/schedule-paths';
import { outlineOf, stepFrom } from './classroom-outline';
import { ConnectionBanner } from './connection-banner';
import { LessonBar, LessonStateTag } from './lesson-bar';
import { LessonNotes } from './lesson-notes';
import { LiveRoster } from './live-roster';
import { SectionNav } from './section-nav';
import { StepButtons, useStepKeys } from './step-keys';
import { TeacherSection } from './teacher-section';
import { useLiveClassroom } from './use-live-classroom';

/** What the teacher is told to do next, where the lesson stands. */
function NextStep({ classroom, live }: { classroom: TClassroom; live: ReturnType<typeof useLiveClassroom> }) {
  const { t } = useTranslation('classroom');
  const back = <LinkButton to={schedulePath(classroom.scheduleId)}>{t('teach.toSchedule')}</LinkButton>;
  if (classroom.scheduleStatus === 'notStarted') {
    return <Alert type="info" showIcon title={t('teach.scheduleNotStarted')} action={back} />;
  }
  if (classroom.scheduleStatus === 'finished') {
    return <Alert type="info" showIcon title={t('teach.scheduleFinished')} action={back} />;
  }
  const { session } = live;
  if (!session) return <Alert type="info" showIcon title={t('teach.noLesson')} />;
  if (session.status === 'notStarted') return <Alert type="info" showIcon title={t('teach.notStarted')} />;
  if (session.status === 'finished') return <Alert type="info" showIcon title={t('teach.finished')} />;
  return null;
}

/**
 * The teach view, for the projector: the lesson's state and moves on top, the sections on the left, the section
 * the class sees in the middle (keyboard: arrows or Page Up / Page Down), and the teachers' notes and the live
 * roster on the right. Before a lesson is taught the teacher walks the sections alone to prepare.
 */
export function TeachView({ classroom }: { classroom: TClassroom }) {
  const { t } = useTranslation('classroom');
  const live = useLiveClassroom(classroom);
  const outline = useMemo(() => outlineOf(classroom.courses), [classroom.courses]);
  const [browsing, setBrowsing] = useState<string | null>(null);
  const { session } = live;
  const teaching = session?.status === 'teaching';
  const current = teaching
    ? (live.pendingSection ?? session.sectionId)
    : (browsing ?? session?.sectionId ?? outline[0]?.id ?? null);
  const go = (sectionId: string) => (teaching ? live.show(sectionId) : setBrowsing(sectionId));
  const step = (delta: -1 | 1) => {
    const target = stepFrom(outline, current, delta);
    if (target) go(target);
  };
  useStepKeys(step);
  const readOnly = classroom.scheduleStatus === 'finished';

  return (
    <div className="page classroom-page">
      <header className="classroom-head">
        <h1>
          {classroom.name} <LessonStateTag session={session} />
        </h1>
        {classroom.scheduleStatus === 'inProgress' && <LessonBar scheduleId={classroom.scheduleId} live={live} />}
      </header>
      <ConnectionBanner role="teacher" session={session} live={live} />
      <NextStep classroom={classroom} live={live} />
      {outline.length === 0 ? (
        <Empty description={t('teach.noSections')} />
      ) : (
        <div className="classroom-body classroom-body--teach">
          <SectionNav courses={classroom.courses} current={current} onOpen={go} />
          <div className="classroom-main">
            {current && <TeacherSection scheduleId={classroom.scheduleId} sectionId={current} readOnly={readOnly} />}
            <StepButtons
              hasPrevious={stepFrom(outline, current, -1) !== null}
              hasNext={stepFrom(outline, current, 1) !== null}
              title={outline.find((s) => s.id === current)?.title ?? null}
              onStep={step}
            />
          </div>
          <aside className="classroom-aside" aria-label={t('teach.aside')}>
            {current && (
              <LessonNotes key={current} scheduleId={classroom.scheduleId} sectionId={current} readOnly={readOnly} />
            )}
            <LiveRoster roster={live.roster} outline={outline} />
          </aside>
        </div>
      )}
    </div>
  );
}
