import type { TProject } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { setCollaborators, useCollaborators } from './project-api';

/** The owner names who may edit, by username of the same institution. */
export function CollaboratorsField({ project }: { project: TProject }) {
  const { t } = useTranslation('project');
  const client = useQueryClient();
  const list = useCollaborators(project.id);
  if (!project.isOwner) return null;
  return (
    <label className="collaborators-field">
      <span>{t('form.collaborators')}</span>
      <Select
        mode="tags"
        open={false}
        aria-label={t('form.collaborators')}
        value={(list.data ?? []).map((c) => c.username)}
        onChange={async (usernames: string[]) => {
          client.setQueryData(['projects', 'collaborators', project.id], await setCollaborators(project.id, usernames));
          toast.success(t('form.saved'));
        }}
      />
      <span className="panel-hint">{t('form.collaboratorsHint')}</span>
    </label>
  );
}
