import { EyeOutlined } from '@ant-design/icons';
import { ERRORS, type TEditableCourse } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Collapse, Skeleton, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { LinkButton } from '../../ui/link-button';
import { CertificationNeeded, useCourseCreation } from './author-gate';
import { CollaboratorsButton } from './collaborators-drawer';
import { courseKeys, editorCalls, useEditableCourse, useEditorMutation } from './course-api';
import { CourseError } from './course-error';
import { CourseInfoForm, type CourseInfoValues } from './course-info-form';
import { statusColor, statusLabel } from './course-labels';
import { CourseOutline } from './course-outline';
import { CourseResults } from './course-results';
import { courseEditPath, coursePath } from './course-paths';
import { CourseStateActions } from './course-state-actions';
import { CourseVersions } from './course-versions';
import { SectionEditor } from './section-editor';
import './course.css';

/**
 * Creating a course: only its information; the editor opens once it exists. Someone who may not create one (spec
 * section 6: certified teachers only) reads what is needed instead of a form the server would refuse.
 */
function NewCourse() {
  const { t } = useTranslation('course');
  const navigate = useNavigate();
  const { canCreate, status } = useCourseCreation();
  const create = async (values: CourseInfoValues) => {
    const course = await editorCalls.create(values);
    void navigate(courseEditPath(course.id), { replace: true });
  };
  return (
    <div className="page course-editor">
      <h1>{t('editor.newTitle')}</h1>
      {canCreate === undefined ? (
        <Skeleton active title={false} paragraph={{ rows: 6 }} />
      ) : canCreate ? (
        <CourseInfoForm onSave={create} />
      ) : (
        <CertificationNeeded status={status} />
      )}
    </div>
  );
}

/** The course editor: information, chapters and sections on the left, the chosen section in the middle. */
export function CourseEditorPage() {
  const { courseId = '' } = useParams();
  if (courseId === 'new') return <NewCourse />;
  return <CourseEditor courseId={courseId} />;
}

function CourseEditor({ courseId }: { courseId: string }) {
  const { t } = useTranslation('course');
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const query = useEditableCourse(courseId);
  const run = useEditorMutation(courseId, (call: () => Promise<TEditableCourse>) => call());
  const selected = params.get('section');
  const select = (id: string) => setParams({ section: id }, { replace: true });
  const reload = () => void client.invalidateQueries({ queryKey: courseKeys.edit(courseId) });

  if (query.isPending) {
    return (
      <div className="page">
        <Skeleton active title={false} paragraph={{ rows: 10 }} />
      </div>
    );
  }
  if (query.isError || !query.data) return <CourseError error={query.error ?? ERRORS.NOT_FOUND} />;
  const course = query.data;
  const editable = course.status === 'draft' || course.status === 'modifying';
  const section = course.chapters.flatMap((c) => c.sections).find((s) => s.id === selected) ?? null;
  const act = (call: () => Promise<TEditableCourse>) => run.mutateAsync(call);
  // A refused order leaves the outline as the server has it (another author may have changed it meanwhile).
  const reorder = (call: () => Promise<TEditableCourse>) => act(call).catch(reload);

  return (
    <div className="page course-editor">
      <header className="course-editor__head">
        <div>
          <h1>{course.name}</h1>
          <p className="course-editor__meta">
            <Tag color={statusColor(course)}>{statusLabel(t, course)}</Tag>
            <span className="course-editor__code">{t('editor.code', { code: course.code })}</span>
            {course.versionNumber !== null && <span>{t('detail.version', { version: course.versionNumber })}</span>}
          </p>
        </div>
        <div className="course-editor__actions">
          <LinkButton size="large" to={coursePath(course.id)} icon={<EyeOutlined />}>
            {t('editor.preview')}
          </LinkButton>
          <CollaboratorsButton
            course={course}
            onChange={(usernames) => act(() => editorCalls.setCollaborators(course.id, usernames))}
          />
          <CourseStateActions course={course} onAction={(a) => act(() => editorCalls.transition(course.id, a))} />
        </div>
      </header>
      {!editable && course.status !== 'closed' && <Alert type="info" showIcon title={t('editor.readOnly')} />}
      <Collapse
        className="course-editor__info"
        items={[
          {
            key: 'info',
            label: t('editor.info'),
            children: (
              <CourseInfoForm
                course={course}
                onSave={(values) => act(() => editorCalls.update(course.id, values))}
                onCover={(file) => act(() => editorCalls.cover(course.id, file))}
              />
            ),
          },
          { key: 'versions', label: t('versions.title'), children: <CourseVersions courseId={course.id} /> },
        ]}
      />
      <div className="course-editor__body">
        <CourseOutline
          course={course}
          editable={editable}
          selected={selected}
          onSelect={select}
          onAddChapter={(title) => act(() => editorCalls.addChapter(course.id, title))}
          onDeleteChapter={(id) => act(() => editorCalls.deleteChapter(id))}
          onRenameChapter={(id, title) => act(() => editorCalls.renameChapter(id, title))}
          onReorder={(outline) => reorder(() => editorCalls.reorder(course.id, outline))}
          onAddSection={async (chapterId, title) => {
            const added = await editorCalls.addSection(chapterId, title);
            client.setQueryData(courseKeys.edit(courseId), added.course);
            select(added.sectionId);
          }}
        />
        <div className="course-editor__section">
          {section ? (
            <SectionEditor
              key={section.id}
              section={section}
              editable={editable}
              onSave={(body) => act(() => editorCalls.updateSection(section.id, body))}
              onDelete={() => act(() => editorCalls.deleteSection(section.id))}
              onDeleteResource={(id) => act(() => editorCalls.deleteResource(id))}
              onUploaded={reload}
              tasks={{
                onAdd: (task) => act(() => editorCalls.addTask(section.id, task)),
                onUpdate: (id, task) => act(() => editorCalls.updateTask(id, task)),
                onDelete: (id) => act(() => editorCalls.deleteTask(id)),
                onReorder: (ids) => reorder(() => editorCalls.reorderTasks(section.id, ids)),
              }}
            />
          ) : (
            <p className="course-editor__hint">{t('editor.noSection')}</p>
          )}
        </div>
      </div>
      {course.versionNumber !== null && <CourseResults courseId={course.id} />}
    </div>
  );
}
