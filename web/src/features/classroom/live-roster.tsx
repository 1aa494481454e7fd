import type { TClassroomRoster, TRosterStudent } from '@aiedu/contracts';
import { Skeleton } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OutlineSection } from './classroom-outline';

/** What changed for the people reading the roster with a screen reader: arrivals, departures, answers. */
type Change = { key: 'roster.cameOnline' | 'roster.wentOffline' | 'roster.answeredNow'; name: string };
function changesOf(before: TClassroomRoster, after: TClassroomRoster): Change[] {
  const known = new Map(before.students.map((s) => [s.userId, s]));
  return after.students.flatMap((s): Change[] => {
    const was = known.get(s.userId);
    if (!was) return [];
    if (!was.online && s.online) return [{ key: 'roster.cameOnline', name: s.name }];
    if (was.online && !s.online) return [{ key: 'roster.wentOffline', name: s.name }];
    if (was.submitted !== true && s.submitted === true) return [{ key: 'roster.answeredNow', name: s.name }];
    return [];
  });
}

/** Online students first, then by name. */
const byPresence = (a: TRosterStudent, b: TRosterStudent) =>
  Number(b.online) - Number(a.online) || a.name.localeCompare(b.name);

/**
 * The live roster: who is online, on which section, and who has answered every task of the section the class is
 * on, as a table with a caption; a polite live region reads out who came, went or answered.
 */
export function LiveRoster({
  roster,
  outline,
}: {
  roster: TClassroomRoster | null;
  outline: readonly OutlineSection[];
}) {
  const { t } = useTranslation('classroom');
  const previous = useRef(roster);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    const before = previous.current;
    previous.current = roster;
    if (!before || !roster) return;
    const changes = changesOf(before, roster);
    if (changes.length === 0) return;
    setAnnouncement(
      changes.length > 3
        ? t('roster.manyChanges', { count: changes.length })
        : changes.map((c) => t(c.key, { name: c.name })).join(' '),
    );
  }, [roster, t]);

  const titleOf = (sectionId: string | null) => outline.find((s) => s.id === sectionId)?.title ?? '—';
  const students = roster ? [...roster.students].sort(byPresence) : [];
  const online = students.filter((s) => s.online).length;
  const answered = students.filter((s) => s.submitted).length;
  const hasTask = students.some((s) => s.submitted !== null);

  return (
    <section className="classroom-roster" aria-labelledby="classroom-roster-title">
      <h2 id="classroom-roster-title" className="classroom-panel__title">
        {t('roster.title')}
      </h2>
      {!roster ? (
        <Skeleton active title={false} paragraph={{ rows: 4 }} />
      ) : students.length === 0 ? (
        <p>{t('roster.empty')}</p>
      ) : (
        <>
          <p className="classroom-roster__summary">
            <span>{t('roster.online', { count: online, total: students.length })}</span>
            {hasTask && <span>{t('roster.answered', { count: answered, total: students.length })}</span>}
          </p>
          <div className="classroom-roster__scroll" role="region" aria-label={t('roster.caption')} tabIndex={0}>
            <table className="classroom-roster__table">
              <caption className="visually-hidden">{t('roster.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('roster.student')}</th>
                  <th scope="col">{t('roster.presence')}</th>
                  <th scope="col">{t('roster.section')}</th>
                  <th scope="col">{t('roster.task')}</th>
                </tr>
              </thead>
              <tbody>
                {students.map((s) => (
                  <tr key={s.userId}>
                    <th scope="row">
                      {s.name}
                      {s.className && <span className="classroom-muted"> {s.className}</span>}
                    </th>
                    <td>
                      <span className={`classroom-dot classroom-dot--${s.online ? 'on' : 'off'}`} aria-hidden="true" />
                      {s.online ? t('roster.isOnline') : t('roster.isOffline')}
                    </td>
                    <td>{s.online ? titleOf(s.sectionId) : '—'}</td>
                    <td>{s.submitted === null ? '—' : s.submitted ? t('roster.hasAnswered') : t('roster.notYet')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <div className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </div>
    </section>
  );
}
