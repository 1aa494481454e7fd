import { ArrowRightOutlined, CheckOutlined, LinkOutlined } from '@ant-design/icons';
import type { TLearnerSection } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Skeleton } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { courseKeys, recordSection, useLearnerSection } from './course-api';
import { MarkdownView } from './markdown-view';
import { ResourceItem } from './resource-item';
import { StoredLink } from '../../ui/stored-link';
import { TaskQuiz } from './task-quiz';

/** A section's AI links, each opening in a new tab (the course player and the live classroom show them). */
export function AiLinkList({ links }: { links: TLearnerSection['aiLinks'] }) {
  return (
    <ul>
      {links.map((l) => (
        <li key={l.url}>
          <StoredLink href={l.url} target="_blank" rel="noreferrer">
            <LinkOutlined aria-hidden="true" /> {l.title}
          </StoredLink>
        </li>
      ))}
    </ul>
  );
}

/** The player's middle column: the section's text, resources, AI links and tasks; "done" and "next" below. */
export function SectionView({
  courseId,
  sectionId,
  enrolled,
  onNext,
}: {
  courseId: string;
  sectionId: string;
  enrolled: boolean;
  onNext: (id: string) => void;
}) {
  const { t } = useTranslation('course');
  const client = useQueryClient();
  const section = useLearnerSection(sectionId);
  const refreshCatalogue = () => void client.invalidateQueries({ queryKey: courseKeys.detail(courseId) });

  // Time spent on the section is recorded when the learner leaves it (another section, another page).
  useEffect(() => {
    if (!enrolled) return undefined;
    const opened = Date.now();
    refreshCatalogue();
    return () => {
      const seconds = Math.min(3600, Math.round((Date.now() - opened) / 1000));
      if (seconds > 0) void recordSection(sectionId, { seconds }).catch(() => undefined);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sectionId, enrolled]);

  if (section.isPending) return <Skeleton active title={false} paragraph={{ rows: 8 }} />;
  const data = section.data;
  if (!data) return null;
  const markDone = async () => {
    client.setQueryData(courseKeys.detail(courseId), await recordSection(sectionId, { completed: true }));
    void section.refetch();
  };

  return (
    <article className="course-section" aria-labelledby="course-section-title">
      <h2 id="course-section-title">{data.title}</h2>
      <MarkdownView source={data.content} />
      {data.resources.length > 0 && (
        <section aria-label={t('detail.resources')}>
          <h3>{t('detail.resources')}</h3>
          <ul className="course-resources">
            {data.resources.map((r) => (
              <ResourceItem key={r.id} resource={r} />
            ))}
          </ul>
        </section>
      )}
      {data.aiLinks.length > 0 && (
        <section aria-label={t('detail.aiLinks')}>
          <h3>{t('detail.aiLinks')}</h3>
          <AiLinkList links={data.aiLinks} />
        </section>
      )}
      {data.tasks.length > 0 && (
        <section aria-label={t('detail.tasks')}>
          {data.tasks.map((task) => (
            <TaskQuiz key={task.id} task={task} enrolled={enrolled} onSubmitted={refreshCatalogue} />
          ))}
        </section>
      )}
      {enrolled && (
        <footer className="course-section__footer">
          <Button size="large" icon={<CheckOutlined />} onClick={markDone} disabled={data.completed}>
            {data.completed ? t('detail.completed') : t('detail.markDone')}
          </Button>
          {data.nextSectionId && (
            <Button type="primary" size="large" onClick={() => onNext(data.nextSectionId!)}>
              {t('detail.next')} <ArrowRightOutlined aria-hidden="true" />
            </Button>
          )}
        </footer>
      )}
    </article>
  );
}
