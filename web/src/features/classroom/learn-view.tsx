import { CoffeeOutlined, FlagOutlined } from '@ant-design/icons';
import type { TClassroom } from '@aiedu/contracts';
import { Result } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../ui/link-button';
import { schedulePath } from '../schedule/schedule-paths';
import { outlineOf, stepFrom } from './classroom-outline';
import { ConnectionBanner } from './connection-banner';
import { SectionNav } from './section-nav';
import { StudentSection } from './student-section';
import { useLiveClassroom } from './use-live-classroom';

/**
 * The learn view: while the teacher leads ("follow"), the page shows the section the teacher shows and moves with
 * it; once the class is released ("free"), the student moves alone from where the class was, until called back.
 * Before a lesson starts, and after it ends, it says so and waits: it moves by itself when the teacher starts.
 */
export function LearnView({ classroom }: { classroom: TClassroom }) {
  const { t } = useTranslation('classroom');
  const live = useLiveClassroom(classroom);
  const outline = useMemo(() => outlineOf(classroom.courses), [classroom.courses]);
  const [own, setOwn] = useState<string | null>(null);
  const { session } = live;
  const teaching = session?.status === 'teaching';
  const free = teaching && session.mode === 'free';
  const shown = teaching ? ((free ? own : null) ?? session.sectionId) : null;
  const { reportAt } = live;

  // Called back: the next release starts from where the class is then.
  const [wasFree, setWasFree] = useState(free);
  if (wasFree !== free) {
    setWasFree(free);
    if (!free) setOwn(null);
  }
  useEffect(() => reportAt(shown), [shown, reportAt]);

  const back = (
    <LinkButton size="large" to={schedulePath(classroom.scheduleId)}>
      {t('learn.toSchedule')}
    </LinkButton>
  );
  return (
    <div className="page classroom-page classroom-page--learn">
      <header className="classroom-head">
        <h1>{classroom.name}</h1>
      </header>
      <ConnectionBanner role="student" session={session} live={live} />
      {!teaching || !shown ? (
        <Result
          icon={
            session?.status === 'finished' ? <FlagOutlined aria-hidden="true" /> : <CoffeeOutlined aria-hidden="true" />
          }
          title={
            <h2 className="classroom-wait__title">
              {session?.status === 'finished' ? t('learn.finished') : t('learn.waiting')}
            </h2>
          }
          subTitle={session?.status === 'finished' ? t('learn.finishedHint') : t('learn.waitingHint')}
          extra={back}
        />
      ) : (
        <div className="classroom-body">
          <SectionNav
            courses={classroom.courses}
            current={shown}
            classAt={session.sectionId}
            disabled={!free}
            onOpen={setOwn}
          />
          <div className="classroom-main">
            <StudentSection
              key={shown}
              scheduleId={classroom.scheduleId}
              sectionId={shown}
              nextSectionId={free ? stepFrom(outline, shown, 1) : null}
              onNext={setOwn}
              onAnswered={live.reportAnswer}
            />
          </div>
        </div>
      )}
    </div>
  );
}
