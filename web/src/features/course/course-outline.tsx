import { PlusOutlined } from '@ant-design/icons';
import { LIMITS, UI_SIZES, type TEditableCourse, type TSection } from '@aiedu/contracts';
import { closestCenter, type CollisionDetection, type DragEndEvent, type DragOverEvent } from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OutlineChapter } from './outline-chapter';
import {
  chapterOf,
  moveById,
  outlineOf,
  placeSection,
  sameOutline,
  sectionCanStep,
  stepSection,
  type Outline,
} from './outline-order';
import { rowData, SortableArea } from './sortable-parts';

/** A dragged chapter meets only chapters; a dragged section meets sections and empty chapters. */
const collide: CollisionDetection = (args) => {
  const dragged = rowData(args.active)?.type;
  return closestCenter({
    ...args,
    droppableContainers: args.droppableContainers.filter((c) => {
      const type = (c.data.current as { type?: string } | undefined)?.type;
      return dragged === 'chapter' ? type === 'chapter' : type === 'section' || type === 'zone';
    }),
  });
};

/**
 * The editor's left column: chapters and their sections, added, renamed, deleted and put in order in place: by
 * dragging (pointer or keyboard) or with the up and down buttons. A new order is saved in one call; until the
 * answer comes the outline shows it.
 */
export function CourseOutline({
  course,
  editable,
  selected,
  onSelect,
  onAddChapter,
  onAddSection,
  onDeleteChapter,
  onRenameChapter,
  onReorder,
}: {
  course: TEditableCourse;
  editable: boolean;
  selected: string | null;
  onSelect: (sectionId: string) => void;
  onAddChapter: (title: string) => Promise<unknown>;
  onAddSection: (chapterId: string, title: string) => Promise<unknown>;
  onDeleteChapter: (chapterId: string) => Promise<unknown>;
  onRenameChapter: (chapterId: string, title: string) => Promise<unknown>;
  onReorder: (outline: Outline) => Promise<unknown>;
}) {
  const { t } = useTranslation('course');
  const [chapterTitle, setChapterTitle] = useState('');
  const [sectionTitles, setSectionTitles] = useState<Record<string, string>>({});
  // The order shown while a drag or a save is under way; otherwise the course's own.
  const [moving, setMoving] = useState<Outline | null>(null);
  // Confirmations render inside the page (its theme and language), not in a root of their own.
  const [modal, modalHost] = Modal.useModal();

  const saved = outlineOf(course.chapters);
  const outline = moving ?? saved;
  const sections = new Map<string, TSection>(course.chapters.flatMap((c) => c.sections.map((s) => [s.id, s])));
  const chapters = new Map(course.chapters.map((c) => [c.id, c]));

  const commit = (next: Outline) => {
    if (sameOutline(next, saved)) return setMoving(null);
    setMoving(next);
    void onReorder(next).finally(() => setMoving(null));
  };

  const onDragOver = ({ active, over }: DragOverEvent) => {
    const target = rowData(over);
    if (rowData(active)?.type !== 'section' || !over || !target?.chapterId) return;
    const from = chapterOf(outline, String(active.id));
    if (!from || from.id === target.chapterId) return;
    // Into another chapter: at the place of the section it is over, or as the only one of an empty chapter.
    const index = outline.find((c) => c.id === target.chapterId)?.sections.indexOf(String(over.id)) ?? 0;
    setMoving(placeSection(outline, String(active.id), target.chapterId, Math.max(index, 0)));
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const id = String(active.id);
    if (!over) return commit(outline);
    if (rowData(active)?.type === 'chapter')
      return commit(moveById(outline, (c) => c.id, id, { overId: String(over.id) }));
    const chapter = chapterOf(outline, id);
    if (!chapter) return commit(outline);
    const within = moveById(chapter.sections, (s) => s, id, { overId: String(over.id) });
    commit(outline.map((c) => (c.id === chapter.id ? { id: c.id, sections: within } : c)));
  };

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
      <SortableArea
        collisionDetection={collide}
        onDragOver={onDragOver}
        onDragEnd={onDragEnd}
        onDragCancel={() => setMoving(null)}
      >
        <SortableContext items={outline.map((c) => c.id)} strategy={verticalListSortingStrategy}>
          <ol className="course-outline__chapters">
            {outline.map((entry, index) => {
              const chapter = chapters.get(entry.id);
              if (!chapter) return null;
              return (
                <OutlineChapter
                  key={chapter.id}
                  chapter={chapter}
                  sections={entry.sections.flatMap((id) => sections.get(id) ?? [])}
                  editable={editable}
                  selected={selected}
                  canUp={index > 0}
                  canDown={index < outline.length - 1}
                  sectionCanStep={(id, delta) => sectionCanStep(outline, id, delta)}
                  onMove={(delta) => commit(moveById(outline, (c) => c.id, chapter.id, { delta }))}
                  onMoveSection={(id, delta) => commit(stepSection(outline, id, delta))}
                  onSelect={onSelect}
                  onRename={(title) => onRenameChapter(chapter.id, title)}
                  onDelete={() => confirmDelete(chapter.id, chapter.title)}
                >
                  {editable && (
                    <Input.Search
                      aria-label={t('editor.sectionTitle')}
                      placeholder={t('editor.sectionTitle')}
                      maxLength={LIMITS.courseTitle}
                      value={sectionTitles[chapter.id] ?? ''}
                      onChange={(e) => setSectionTitles((s) => ({ ...s, [chapter.id]: e.target.value }))}
                      enterButton={t('editor.addSection')}
                      onSearch={(title) => {
                        if (!title.trim()) return;
                        // A refusal was shown where every refusal is; the title stays to be corrected.
                        void onAddSection(chapter.id, title.trim()).then(
                          () => setSectionTitles((s) => ({ ...s, [chapter.id]: '' })),
                          () => undefined,
                        );
                      }}
                    />
                  )}
                </OutlineChapter>
              );
            })}
          </ol>
        </SortableContext>
      </SortableArea>
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
          onSearch={(title) => {
            if (!title.trim()) return;
            void onAddChapter(title.trim()).then(
              () => setChapterTitle(''),
              () => undefined,
            );
          }}
        />
      )}
    </nav>
  );
}
