import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { LIMITS, type TQuestion, type TSection } from '@aiedu/contracts';
import type { DragEndEvent } from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { moveById } from './outline-order';
import { MoveButtons, SortableArea, SortableItem } from './sortable-parts';
import { TaskBuilder } from './task-builder';

type Task = TSection['tasks'][number];
type TaskBody = { title: string; questions: TQuestion[] };

function TaskRow({
  task,
  editable,
  canUp,
  canDown,
  onMove,
  onEdit,
  onDelete,
}: {
  task: Task;
  editable: boolean;
  canUp: boolean;
  canDown: boolean;
  onMove: (delta: -1 | 1) => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation('course');
  return (
    <SortableItem id={task.id} data={{ type: 'task', title: task.title }} disabled={!editable}>
      {(handle) => (
        <>
          {handle}
          <span className="course-task-list__title">{task.title}</span>
          {editable && (
            <>
              <MoveButtons title={task.title} canUp={canUp} canDown={canDown} onMove={onMove} />
              <Button
                type="text"
                icon={<EditOutlined />}
                aria-label={t('editor.editTask', { title: task.title })}
                onClick={onEdit}
              />
              <Button
                type="text"
                icon={<DeleteOutlined />}
                aria-label={`${t('editor.delete')} ${task.title}`}
                onClick={onDelete}
              />
            </>
          )}
        </>
      )}
    </SortableItem>
  );
}

/**
 * A section's tasks: put in order by dragging or with the up and down buttons, changed in place (the task's own
 * builder opens under it), deleted; and a builder for a new one while the section has room.
 */
export function TaskList({
  tasks,
  editable,
  onAdd,
  onUpdate,
  onDelete,
  onReorder,
}: {
  tasks: Task[];
  editable: boolean;
  onAdd: (task: TaskBody) => Promise<unknown>;
  onUpdate: (taskId: string, task: TaskBody) => Promise<unknown>;
  onDelete: (taskId: string) => Promise<unknown>;
  onReorder: (ids: string[]) => Promise<unknown>;
}) {
  const { t } = useTranslation('course');
  const [editing, setEditing] = useState<string | null>(null);
  const [moving, setMoving] = useState<string[] | null>(null);
  const ids = moving ?? tasks.map((task) => task.id);
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const reorder = (next: string[]) => {
    if (next.join() === tasks.map((task) => task.id).join()) return;
    setMoving(next);
    void onReorder(next).finally(() => setMoving(null));
  };
  const onDragEnd = ({ active, over }: DragEndEvent) =>
    over && reorder(moveById(ids, (id) => id, String(active.id), { overId: String(over.id) }));
  const editingTask = editing ? byId.get(editing) : undefined;

  return (
    <section aria-label={t('detail.tasks')}>
      <h3>{t('detail.tasks')}</h3>
      <SortableArea onDragEnd={onDragEnd}>
        <SortableContext items={ids} strategy={verticalListSortingStrategy}>
          <ul className="course-editor__list">
            {ids.flatMap((id, index) => {
              const task = byId.get(id);
              if (!task) return [];
              return (
                <TaskRow
                  key={id}
                  task={task}
                  editable={editable}
                  canUp={index > 0}
                  canDown={index < ids.length - 1}
                  onMove={(delta) => reorder(moveById(ids, (x) => x, id, { delta }))}
                  onEdit={() => setEditing(id)}
                  onDelete={() => void onDelete(id).catch(() => undefined)}
                />
              );
            })}
          </ul>
        </SortableContext>
      </SortableArea>
      {editable && editingTask && (
        <TaskBuilder
          key={editingTask.id}
          task={editingTask}
          onSave={async (body) => {
            await onUpdate(editingTask.id, body);
            setEditing(null);
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      {editable && !editingTask && tasks.length < LIMITS.tasksPerSection && <TaskBuilder onSave={onAdd} />}
    </section>
  );
}
