import type { TProject, TUpdateProjectRequest } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { CollaboratorsField } from './collaborators-field';
import { projectKeys, updateProject } from './project-api';
import { ProjectFormFields } from './project-form-fields';

/** The settings drawer: every field of the project; a public project cannot be made private again. */
export function ProjectSettings({ project }: { project: TProject }) {
  const { t } = useTranslation('project');
  const client = useQueryClient();
  const [form] = Form.useForm<TUpdateProjectRequest>();
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={project}
      onFinish={async (values) => {
        const saved = await updateProject(project.id, values);
        client.setQueryData(projectKeys.one(project.id), saved);
        toast.success(t('form.saved'));
      }}
    >
      <ProjectFormFields publicFinal={project.access !== 'private'} />
      <Button kind="primary" htmlType="submit">
        {t('form.save')}
      </Button>
      <CollaboratorsField project={project} />
    </Form>
  );
}
