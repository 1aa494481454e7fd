import { CheckCircleFilled, PlayCircleOutlined } from '@ant-design/icons';
import type { TCourseDetail } from '@aiedu/contracts';
import { useTranslation } from 'react-i18next';

/** The player's left column: chapters → sections, with completion ticks and the open section marked. */
export function CourseCatalogue({
  catalogue,
  current,
  onOpen,
  disabled,
}: {
  catalogue: TCourseDetail['catalogue'];
  current: string | null;
  onOpen: (sectionId: string) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation('course');
  return (
    <nav className="course-catalogue" aria-label={t('detail.catalogue')}>
      <h2 className="course-catalogue__title">{t('detail.catalogue')}</h2>
      {catalogue.length === 0 && <p>{t('detail.empty')}</p>}
      <ol className="course-catalogue__chapters">
        {catalogue.map((chapter) => (
          <li key={chapter.id}>
            <h3 className="course-catalogue__chapter">{chapter.title}</h3>
            <ol className="course-catalogue__sections">
              {chapter.sections.map((section) => (
                <li key={section.id}>
                  <button
                    type="button"
                    className="course-catalogue__section"
                    aria-current={section.id === current ? 'step' : undefined}
                    disabled={disabled}
                    onClick={() => onOpen(section.id)}
                  >
                    {section.completed ? (
                      <CheckCircleFilled className="course-catalogue__done" aria-label={t('detail.completed')} />
                    ) : (
                      <PlayCircleOutlined aria-hidden="true" />
                    )}
                    <span>{section.title}</span>
                  </button>
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ol>
    </nav>
  );
}
