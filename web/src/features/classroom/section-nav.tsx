import { CheckCircleOutlined, PlayCircleOutlined, TeamOutlined } from '@ant-design/icons';
import type { TScheduleCourse } from '@aiedu/contracts';
import { useTranslation } from 'react-i18next';

/**
 * The schedule's courses and their sections, the one shown marked (`aria-current`). `classAt` marks where the class
 * is, for a student working on their own; `disabled` while the teacher leads.
 */
export function SectionNav({
  courses,
  current,
  classAt,
  disabled,
  onOpen,
}: {
  courses: readonly TScheduleCourse[];
  current: string | null;
  classAt?: string | null;
  disabled?: boolean;
  onOpen: (sectionId: string) => void;
}) {
  const { t } = useTranslation('classroom');
  return (
    <nav className="classroom-nav" aria-label={t('outline.title')}>
      <h2 className="classroom-nav__title">{t('outline.title')}</h2>
      {courses.map((course) => (
        <div key={course.courseId}>
          <h3 className="classroom-nav__course">{course.name}</h3>
          <ol className="classroom-nav__sections">
            {course.sections.map((section) => (
              <li key={section.id}>
                <button
                  type="button"
                  className="classroom-nav__section"
                  aria-current={section.id === current ? 'step' : undefined}
                  disabled={disabled}
                  onClick={() => onOpen(section.id)}
                >
                  {section.id === current ? (
                    <CheckCircleOutlined aria-hidden="true" />
                  ) : (
                    <PlayCircleOutlined aria-hidden="true" />
                  )}
                  <span>
                    <span className="classroom-muted">{section.chapterTitle}</span>
                    <span className="classroom-nav__name">{section.title}</span>
                    {classAt === section.id && classAt !== current && (
                      <span className="classroom-nav__class">
                        <TeamOutlined aria-hidden="true" /> {t('outline.classHere')}
                      </span>
                    )}
                  </span>
                </button>
              </li>
            ))}
          </ol>
        </div>
      ))}
    </nav>
  );
}
