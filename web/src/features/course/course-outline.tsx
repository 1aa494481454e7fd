import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { LIMITS, UI_SIZES, type TEditableCourse } from '@aiedu/contracts';
import { Button, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The editor's left column: chapters and their sections, added and deleted in place. */
export function CourseOutline({
  course,
  editable,
  selected,
  onSelect,
  onAddChapter,
  onAddSection,
  onDeleteChapter,
}: {
  course: TEditableCourse;
  editable: boolean;
  selected: string | null;
  onSelect: (sectionId: string) => void;
  onAddChapter: (title: string) => Promise<unknown>;
  onAddSection: (chapterId: string, title: string) => Promise<unknown>;
  onDeleteChapter: (chapterId: string) => Promise<unknown>;
}) {
  const { t } = useTranslation('course');
  const [chapterTitle, setChapterTitle] = useState('');
  const [sectionTitles, setSectionTitles] = useState<Record<string, string>>({});
  // Confirmations render inside the page (its theme and language), not in a root of their own.
  const [modal, modalHost] = Modal.useModal();

  const confirmDelete = (id: string, title: string) =>
    modal.confirm({
      width: UI_SIZES.confirmDialogWidth,
      title: t('editor.deleteConfirm', { title }),
      okText: t('editor.delete'),
      okButtonProps: { danger: true },
      cancelText: t('editor.cancel'),
      onOk: () => onDeleteChapter(id),
    });

  return (
    <nav className="course-outline" aria-label={t('editor.content')}>
      {modalHost}
      <h2>{t('editor.content')}</h2>
      <ol className="course-outline__chapters">
        {course.chapters.map((chapter) => (
          <li key={chapter.id} className="course-outline__chapter">
            <div className="course-outline__chapter-head">
              <h3>{chapter.title}</h3>
              {editable && (
                <Button
                  type="text"
                  icon={<DeleteOutlined />}
                  aria-label={`${t('editor.delete')} ${chapter.title}`}
                  onClick={() => confirmDelete(chapter.id, chapter.title)}
                />
              )}
            </div>
            <ol className="course-outline__sections">
              {chapter.sections.map((section) => (
                <li key={section.id}>
                  <button
                    type="button"
                    className="course-outline__section"
                    aria-current={section.id === selected ? 'true' : undefined}
                    onClick={() => onSelect(section.id)}
                  >
                    {section.title}
                  </button>
                </li>
              ))}
            </ol>
            {editable && (
              <Input.Search
                aria-label={t('editor.sectionTitle')}
                placeholder={t('editor.sectionTitle')}
                maxLength={LIMITS.courseTitle}
                value={sectionTitles[chapter.id] ?? ''}
                onChange={(e) => setSectionTitles((s) => ({ ...s, [chapter.id]: e.target.value }))}
                enterButton={t('editor.addSection')}
                onSearch={async (title) => {
                  if (!title.trim()) return;
                  await onAddSection(chapter.id, title.trim());
                  setSectionTitles((s) => ({ ...s, [chapter.id]: '' }));
                }}
              />
            )}
          </li>
        ))}
      </ol>
      {editable && (
        <Input.Search
          aria-label={t('editor.chapterTitle')}
          placeholder={t('editor.chapterTitle')}
          maxLength={LIMITS.chapterTitle}
          value={chapterTitle}
          onChange={(e) => setChapterTitle(e.target.value)}
          enterButton={
            <>
              <PlusOutlined aria-hidden="true" /> {t('editor.addChapter')}
            </>
          }
          onSearch={async (title) => {
            if (!title.trim()) return;
            await onAddChapter(title.trim());
            setChapterTitle('');
          }}
        />
      )}
    </nav>
  );
}
