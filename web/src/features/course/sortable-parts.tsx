import { ArrowDownOutlined, ArrowUpOutlined, HolderOutlined } from '@ant-design/icons';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Active,
  type CollisionDetection,
  type DragEndEvent,
  type DragOverEvent,
  type Over,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Button } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** What a sortable row carries for the announcements and the drop logic: its kind, its name and its parent. */
export interface RowData {
  type: 'chapter' | 'section' | 'zone' | 'task';
  title: string;
  chapterId?: string;
}

const dataOf = (item: Active | Over | null) => item?.data.current as RowData | undefined;

/**
 * Drag and drop of the editor's lists (dnd-kit): pointer and keyboard, with the instructions and the announcements
 * a screen reader reads in the user's language.
 */
export function SortableArea({
  children,
  onDragOver,
  onDragEnd,
  onDragCancel,
  collisionDetection = closestCenter,
}: {
  children: ReactNode;
  onDragOver?: (event: DragOverEvent) => void;
  onDragEnd: (event: DragEndEvent) => void;
  onDragCancel?: () => void;
  collisionDetection?: CollisionDetection;
}) {
  const { t } = useTranslation('course');
  const sensors = useSensors(
    // A few pixels of movement first, so a click on the handle stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const title = (item: Active | Over | null) => dataOf(item)?.title ?? '';
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisionDetection}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={onDragCancel}
      accessibility={{
        screenReaderInstructions: { draggable: t('sortable.instructions') },
        announcements: {
          onDragStart: ({ active }) => t('sortable.picked', { title: title(active) }),
          onDragOver: ({ active, over }) =>
            over
              ? t('sortable.over', { title: title(active), over: title(over) })
              : t('sortable.outside', { title: title(active) }),
          onDragEnd: ({ active }) => t('sortable.dropped', { title: title(active) }),
          onDragCancel: ({ active }) => t('sortable.cancelled', { title: title(active) }),
        },
      }}
    >
      {children}
    </DndContext>
  );
}

/**
 * A row of a sortable list (`<li>`): the node that moves, and its drag handle (a button the keyboard can pick up
 * too), which `children` place where it belongs in the row.
 */
export function SortableItem({
  id,
  data,
  disabled = false,
  className,
  children,
}: {
  id: string;
  data: RowData;
  disabled?: boolean;
  className?: string;
  children: (handle: ReactNode) => ReactNode;
}) {
  const { t } = useTranslation('course');
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
    data,
    disabled,
    attributes: { roleDescription: t('sortable.role') },
  });
  const style: CSSProperties = { transform: CSS.Translate.toString(transform), transition };
  const handle = disabled ? null : (
    <button
      type="button"
      className="course-sortable__handle"
      ref={setActivatorNodeRef}
      {...attributes}
      {...listeners}
      aria-label={t('sortable.drag', { title: data.title })}
    >
      <HolderOutlined aria-hidden="true" />
    </button>
  );
  const classes = [className, isDragging ? 'course-sortable--dragging' : ''].filter(Boolean).join(' ');
  return (
    <li ref={setNodeRef} style={style} className={classes || undefined}>
      {children(handle)}
    </li>
  );
}

/** Up and down buttons, for moving a row one place without dragging. */
export function MoveButtons({
  title,
  canUp,
  canDown,
  onMove,
}: {
  title: string;
  canUp: boolean;
  canDown: boolean;
  onMove: (delta: -1 | 1) => void;
}) {
  const { t } = useTranslation('course');
  return (
    <span className="course-sortable__moves">
      <Button
        type="text"
        size="small"
        icon={<ArrowUpOutlined />}
        aria-label={t('sortable.up', { title })}
        disabled={!canUp}
        onClick={() => onMove(-1)}
      />
      <Button
        type="text"
        size="small"
        icon={<ArrowDownOutlined />}
        aria-label={t('sortable.down', { title })}
        disabled={!canDown}
        onClick={() => onMove(1)}
      />
    </span>
  );
}

/** The kind of the row being dragged or dropped on. */
export const rowData = dataOf;
