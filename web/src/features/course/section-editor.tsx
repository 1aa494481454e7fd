import { DeleteOutlined } from '@ant-design/icons';
import { LIMITS, type TQuestion, type TSection } from '@aiedu/contracts';
import { Button, Input, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { MarkdownView } from './markdown-view';
import { ResourceUpload } from './resource-upload';
import { TaskBuilder } from './task-builder';

/** The editor's middle column: one section's title, Markdown, files and tasks (keyed by section, so it starts fresh). */
export function SectionEditor({
  section,
  editable,
  onSave,
  onDelete,
  onAddTask,
  onDeleteTask,
  onDeleteResource,
  onUploaded,
}: {
  section: TSection;
  editable: boolean;
  onSave: (body: { title: string; content: string }) => Promise<unknown>;
  onDelete: () => Promise<unknown>;
  onAddTask: (task: { title: string; questions: TQuestion[] }) => Promise<unknown>;
  onDeleteTask: (taskId: string) => Promise<unknown>;
  onDeleteResource: (resourceId: string) => Promise<unknown>;
  onUploaded: () => void;
}) {
  const { t } = useTranslation('course');
  const [title, setTitle] = useState(section.title);
  const [content, setContent] = useState(section.content);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    try {
      await onSave({ title: title.trim() || section.title, content });
      toast.success(t('editor.saved'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article className="course-section-editor" aria-labelledby="section-editor-title">
      <h2 id="section-editor-title">{section.title}</h2>
      <label className="course-field">
        <span>{t('editor.sectionTitle')}</span>
        <Input
          value={title}
          maxLength={LIMITS.courseTitle}
          disabled={!editable}
          onChange={(e) => setTitle(e.target.value)}
        />
      </label>
      <Tabs
        items={[
          {
            key: 'write',
            label: t('editor.sectionContent'),
            children: (
              <Input.TextArea
                aria-label={t('editor.sectionContent')}
                value={content}
                rows={12}
                disabled={!editable}
                onChange={(e) => setContent(e.target.value)}
                className="course-section-editor__markdown"
              />
            ),
          },
          { key: 'preview', label: t('editor.preview'), children: <MarkdownView source={content} /> },
        ]}
      />
      {editable && (
        <div className="course-section-editor__actions">
          <Button type="primary" onClick={save} loading={busy}>
            {t('editor.save')}
          </Button>
          <Button danger icon={<DeleteOutlined />} onClick={() => void onDelete()}>
            {t('editor.delete')}
          </Button>
        </div>
      )}
      <section aria-label={t('detail.resources')}>
        <h3>{t('detail.resources')}</h3>
        <ul className="course-editor__list">
          {section.resources.map((r) => (
            <li key={r.id}>
              <span>{r.name}</span>
              {editable && (
                <Button
                  type="text"
                  icon={<DeleteOutlined />}
                  aria-label={`${t('editor.delete')} ${r.name}`}
                  onClick={() => void onDeleteResource(r.id)}
                />
              )}
            </li>
          ))}
        </ul>
        {editable && (
          <ResourceUpload
            sectionId={section.id}
            disabled={section.resources.length >= LIMITS.resourcesPerSection}
            onDone={onUploaded}
          />
        )}
      </section>
      <section aria-label={t('detail.tasks')}>
        <h3>{t('detail.tasks')}</h3>
        <ul className="course-editor__list">
          {section.tasks.map((task) => (
            <li key={task.id}>
              <span>{task.title}</span>
              {editable && (
                <Button
                  type="text"
                  icon={<DeleteOutlined />}
                  aria-label={`${t('editor.delete')} ${task.title}`}
                  onClick={() => void onDeleteTask(task.id)}
                />
              )}
            </li>
          ))}
        </ul>
        {editable && section.tasks.length < LIMITS.tasksPerSection && <TaskBuilder onSave={onAddTask} />}
      </section>
    </article>
  );
}
