import type { TLearnerSection, TResource } from '@aiedu/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MarkdownView } from '../course/markdown-view';
import { AiLinkList } from '../course/section-view';
import '../course/course.css';

/**
 * A section as the class sees it: its title, text, resources and AI links; `children` below (the tasks, as a
 * teacher or a student meets them). `resource` draws one resource, with the addresses the viewer may use.
 */
export function SectionBody({
  section,
  resource,
  children,
}: {
  section: TLearnerSection;
  resource: (resource: TResource) => ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation('classroom');
  return (
    <article className="classroom-section course-section" aria-labelledby="classroom-section-title">
      <h2 id="classroom-section-title" className="classroom-section__title">
        {section.title}
      </h2>
      <MarkdownView source={section.content} />
      {section.resources.length > 0 && (
        <section aria-labelledby="classroom-resources">
          <h3 id="classroom-resources">{t('section.resources')}</h3>
          <ul className="course-resources">{section.resources.map(resource)}</ul>
        </section>
      )}
      {section.aiLinks.length > 0 && (
        <section aria-labelledby="classroom-links">
          <h3 id="classroom-links">{t('section.aiLinks')}</h3>
          <AiLinkList links={section.aiLinks} />
        </section>
      )}
      {children}
    </article>
  );
}
