import { CheckOutlined, CloseOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { LIMITS, type TChapter, type TSection } from '@aiedu/contracts';
import { useDroppable } from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { Button, Input } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MoveButtons, SortableItem } from './sortable-parts';

/** A chapter's name as a heading, or, while renamed, a field with Save and Cancel. */
function ChapterTitle({
  title,
  editable,
  onRename,
}: {
  title: string;
  editable: boolean;
  onRename: (title: string) => Promise<unknown>;
}) {
  const { t } = useTranslation('course');
  const [value, setValue] = useState<string | null>(null);
  if (value === null) {
    return (
      <>
        <h3>{title}</h3>
        {editable && (
          <Button
            type="text"
            size="small"
            icon={<EditOutlined />}
            aria-label={t('editor.renameChapter', { title })}
            onClick={() => setValue(title)}
          />
        )}
      </>
    );
  }
  const save = async () => {
    const next = value.trim();
    if (next && next !== title) await onRename(next);
    setValue(null);
  };
  return (
    <span className="course-outline__rename">
      <Input
        size="small"
        autoFocus
        aria-label={t('editor.renameChapter', { title })}
        value={value}
        maxLength={LIMITS.chapterTitle}
        onChange={(e) => setValue(e.target.value)}
        onPressEnter={() => void save().catch(() => undefined)}
        onKeyDown={(e) => e.key === 'Escape' && setValue(null)}
      />
      <Button
        type="text"
        size="small"
        icon={<CheckOutlined />}
        aria-label={t('editor.save')}
        onClick={() => void save().catch(() => undefined)}
      />
      <Button
        type="text"
        size="small"
        icon={<CloseOutlined />}
        aria-label={t('editor.cancel')}
        onClick={() => setValue(null)}
      />
    </span>
  );
}

function SectionRow({
  section,
  chapterId,
  editable,
  selected,
  canUp,
  canDown,
  onSelect,
  onMove,
}: {
  section: TSection;
  chapterId: string;
  editable: boolean;
  selected: boolean;
  canUp: boolean;
  canDown: boolean;
  onSelect: () => void;
  onMove: (delta: -1 | 1) => void;
}) {
  return (
    <SortableItem id={section.id} data={{ type: 'section', title: section.title, chapterId }} disabled={!editable}>
      {(handle) => (
        <div className="course-outline__row">
          {handle}
          <button
            type="button"
            className="course-outline__section"
            aria-current={selected ? 'true' : undefined}
            onClick={onSelect}
          >
            {section.title}
          </button>
          {editable && <MoveButtons title={section.title} canUp={canUp} canDown={canDown} onMove={onMove} />}
        </div>
      )}
    </SortableItem>
  );
}

/** Where a section is dropped into a chapter that has none. */
function EmptyChapterZone({ chapterId, title }: { chapterId: string; title: string }) {
  const { t } = useTranslation('course');
  const { setNodeRef, isOver } = useDroppable({ id: `zone:${chapterId}`, data: { type: 'zone', title, chapterId } });
  return (
    <li ref={setNodeRef} className={`course-outline__zone${isOver ? ' course-outline__zone--over' : ''}`}>
      {t('editor.dropHere')}
    </li>
  );
}

/**
 * One chapter of the outline: its name (renamed in place), its place (drag handle, up and down), and its sections
 * in order, each movable within the chapter and into the chapters around it.
 */
export function OutlineChapter({
  chapter,
  sections,
  editable,
  selected,
  canUp,
  canDown,
  sectionCanStep,
  onMove,
  onMoveSection,
  onSelect,
  onRename,
  onDelete,
  children,
}: {
  chapter: TChapter;
  sections: TSection[];
  editable: boolean;
  selected: string | null;
  canUp: boolean;
  canDown: boolean;
  sectionCanStep: (sectionId: string, delta: -1 | 1) => boolean;
  onMove: (delta: -1 | 1) => void;
  onMoveSection: (sectionId: string, delta: -1 | 1) => void;
  onSelect: (sectionId: string) => void;
  onRename: (title: string) => Promise<unknown>;
  onDelete: () => void;
  /** What follows the sections: the field that adds one. */
  children?: ReactNode;
}) {
  const { t } = useTranslation('course');
  return (
    <SortableItem
      id={chapter.id}
      data={{ type: 'chapter', title: chapter.title }}
      disabled={!editable}
      className="course-outline__chapter"
    >
      {(handle) => (
        <>
          <div className="course-outline__chapter-head">
            {handle}
            <ChapterTitle title={chapter.title} editable={editable} onRename={onRename} />
            {editable && (
              <>
                <MoveButtons title={chapter.title} canUp={canUp} canDown={canDown} onMove={onMove} />
                <Button
                  type="text"
                  size="small"
                  icon={<DeleteOutlined />}
                  aria-label={`${t('editor.delete')} ${chapter.title}`}
                  onClick={onDelete}
                />
              </>
            )}
          </div>
          <SortableContext items={sections.map((s) => s.id)} strategy={verticalListSortingStrategy}>
            <ol className="course-outline__sections">
              {sections.map((section) => (
                <SectionRow
                  key={section.id}
                  section={section}
                  chapterId={chapter.id}
                  editable={editable}
                  selected={section.id === selected}
                  canUp={sectionCanStep(section.id, -1)}
                  canDown={sectionCanStep(section.id, 1)}
                  onSelect={() => onSelect(section.id)}
                  onMove={(delta) => onMoveSection(section.id, delta)}
                />
              ))}
              {editable && sections.length === 0 && <EmptyChapterZone chapterId={chapter.id} title={chapter.title} />}
            </ol>
          </SortableContext>
          {children}
        </>
      )}
    </SortableItem>
  );
}
