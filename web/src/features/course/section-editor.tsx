import { DeleteOutlined } from '@ant-design/icons';
import { LIMITS, type TSection } from '@aiedu/contracts';
import { Button, Input, Tabs } from 'antd';
import { useState, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { AiLinksField, aiLinksValid, type AiLink } from './ai-links-field';
import { MarkdownView } from './markdown-view';
import { ResourceUpload } from './resource-upload';
import { TaskList } from './task-list';
import { useTabsMore } from '../../ui/named-icons';

/**
 * The editor's middle column: one section's title, Markdown, AI experiences, files and tasks (keyed by section, so
 * it starts fresh).
 */
export function SectionEditor({
  section,
  editable,
  onSave,
  onDelete,
  onDeleteResource,
  onUploaded,
  tasks,
}: {
  section: TSection;
  editable: boolean;
  onSave: (body: { title: string; content: string; aiLinks: AiLink[] }) => Promise<unknown>;
  onDelete: () => Promise<unknown>;
  onDeleteResource: (resourceId: string) => Promise<unknown>;
  onUploaded: () => void;
  /** What the task list does with the section's tasks. */
  tasks: Omit<ComponentProps<typeof TaskList>, 'tasks' | 'editable'>;
}) {
  const { t } = useTranslation('course');
  const more = useTabsMore();
  const [title, setTitle] = useState(section.title);
  const [content, setContent] = useState(section.content);
  const [aiLinks, setAiLinks] = useState<AiLink[]>(section.aiLinks);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    try {
      const links = aiLinks.map((l) => ({ title: l.title.trim(), url: l.url.trim() }));
      await onSave({ title: title.trim() || section.title, content, aiLinks: links });
      toast.success(t('editor.saved'));
    } catch {
      // The refusal was shown where every refusal is; what was written stays in the fields.
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
        more={more}
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
      <AiLinksField links={aiLinks} editable={editable} onChange={setAiLinks} />
      {editable && (
        <div className="course-section-editor__actions">
          <Button type="primary" onClick={() => void save()} loading={busy} disabled={!aiLinksValid(aiLinks)}>
            {t('editor.save')}
          </Button>
          <Button danger icon={<DeleteOutlined />} onClick={() => void onDelete().catch(() => undefined)}>
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
      <TaskList tasks={section.tasks} editable={editable} {...tasks} />
    </article>
  );
}
