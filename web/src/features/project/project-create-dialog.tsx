import { UI_SIZES, type TCreateProjectRequest } from '@aiedu/contracts';
import { Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { createProject } from './project-api';
import { ProjectFormFields } from './project-form-fields';

/** Creates a project and opens it in the editor. */
export function ProjectCreateDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('project');
  const [form] = Form.useForm<TCreateProjectRequest>();
  const navigate = useNavigate();
  return (
    <Modal
      open={open}
      title={t('form.title')}
      width={UI_SIZES.noticeDialogWidth}
      okText={t('form.create')}
      cancelText={t('form.cancel')}
      destroyOnHidden
      onCancel={onClose}
      onOk={() => form.submit()}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ access: 'private', runtimeType: 'BASIC', tags: [] }}
        onFinish={async (values) => {
          const project = await createProject(values);
          onClose();
          void navigate(`/pjedu/projects/${project.id}/editor`);
        }}
      >
        <ProjectFormFields publicFinal={false} />
      </Form>
    </Modal>
  );
}
