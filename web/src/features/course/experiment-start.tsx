import { ExperimentOutlined } from '@ant-design/icons';
import type { TLearnerSection } from '@aiedu/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../app/api-client';
import { Button } from '../../ui/button';
import { startExperiment } from './course-api';
import { projectEditorPath } from '../../app/paths';

type Question = TLearnerSection['tasks'][number]['questions'][number];

/**
 * "Start experiment": the learner's own copy of the experiment's template project, made on the first press; every
 * press opens the same copy in the project editor. A question whose template is gone says so (spec 8).
 */
export function ExperimentStart({ taskId, question }: { taskId: string; question: Question }) {
  const { t } = useTranslation('course');
  const navigate = useNavigate();
  const start = useMutation({
    mutationFn: () => startExperiment(taskId, question.id),
    onSuccess: ({ projectId }) => void navigate(projectEditorPath(projectId)),
  });
  if (!question.experiment?.linked) {
    return <Alert type="warning" showIcon title={t('experimentRemoved', { ns: 'errors' })} />;
  }
  const started = Boolean(question.experiment.projectId);
  const refusal = start.error instanceof ApiError && typeof start.error.body === 'object' ? start.error.body : null;
  return (
    <div className="course-experiment">
      <Button
        kind="primary"
        size="large"
        icon={<ExperimentOutlined />}
        loading={start.isPending}
        onClick={() => start.mutate()}
      >
        {t(started ? 'experiment.open' : 'experiment.start')}
      </Button>
      <p className="course-experiment__hint">{t(started ? 'experiment.openHint' : 'experiment.startHint')}</p>
      {refusal && <Alert type="error" showIcon title={refusal.errorMsg} />}
    </div>
  );
}
