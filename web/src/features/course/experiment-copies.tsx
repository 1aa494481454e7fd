import { EyeOutlined } from '@ant-design/icons';
import type { TExperimentCopy } from '@aiedu/contracts';
import { Table } from '../../ui/table';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { LinkButton } from '../../ui/link-button';
import { useExperimentCopies } from './course-api';
import { projectEditorPath } from '../../app/paths';

/** The learners' experiment copies; the teacher opens each one read-only in the project editor. */
export function ExperimentCopies({ courseId }: { courseId: string }) {
  const { t } = useTranslation('course');
  const copies = useExperimentCopies(courseId);
  if (!copies.data?.length) return null;
  return (
    <section className="course-results__experiments" aria-labelledby="course-experiments-title">
      <h3 id="course-experiments-title">{t('experiment.copies')}</h3>
      <Table<TExperimentCopy>
        rowKey="id"
        dataSource={copies.data}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: t('results.learner'), dataIndex: 'learnerName' },
          { title: t('experiment.task'), dataIndex: 'taskTitle' },
          {
            title: t('experiment.startedAt'),
            dataIndex: 'createdAt',
            render: (v: string) => formatDateTime(v),
          },
          {
            title: t('experiment.copy'),
            key: 'open',
            render: (_: unknown, c: TExperimentCopy) => (
              <LinkButton
                icon={<EyeOutlined />}
                to={projectEditorPath(c.projectId)}
                aria-label={t('experiment.openCopyOf', { name: c.learnerName })}
              >
                {t('experiment.openCopy')}
              </LinkButton>
            ),
          },
        ]}
      />
    </section>
  );
}
