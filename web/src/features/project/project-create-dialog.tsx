import { UI_SIZES, type TCreateProjectRequest } from '@aiedu/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormDialog } from './form-dialog';
import { createProject } from './project-api';
import { ProjectFormFields } from './project-form-fields';
import { projectEditorPath } from '../../app/paths';

/** Creates a project and opens it in the editor. */
export function ProjectCreateDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('project');
  const navigate = useNavigate();
  return (
    <FormDialog<TCreateProjectRequest>
      open={open}
      title={t('form.title')}
      okText={t('form.create')}
      width={UI_SIZES.noticeDialogWidth}
      initialValues={{ access: 'private', runtimeType: 'BASIC', environment: 'python', tags: [] }}
      onSubmit={async (values) => {
        const project = await createProject(values);
        void navigate(projectEditorPath(project.id));
      }}
      onClose={onClose}
    >
      <ProjectFormFields publicFinal={false} isNew />
    </FormDialog>
  );
}
