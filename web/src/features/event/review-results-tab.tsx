import { SafetyCertificateOutlined, TrophyOutlined } from '@ant-design/icons';
import { UI_SIZES, type TEvent, type TResultRow } from '@aiedu/contracts';
import { Alert, Checkbox, Empty, Form, Modal, Select, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_PATHS } from '../../app/paths';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/dates';
import { LinkButton } from '../../ui/link-button';
import { Table } from '../../ui/table';
import { useCertOptions } from '../certificate/cert-api';
import {
  reviewCalls,
  useResults,
  useReviewMutation,
  useReviewProgress,
  type TEventCertificatesResult,
} from './review-api';
import { Refusal, useRoundName } from './review-kit';

interface CertValues {
  certId: string;
  awards: string[];
  includeMentors: boolean;
}

/** Certificates for the winners: a template, the awards it is for, mentors too or not; then the issuance to follow. */
function Certificates({ event }: { event: TEvent }) {
  const { t } = useTranslation('eventReview');
  const templates = useCertOptions();
  const issue = useReviewMutation(reviewCalls.certificates);
  const [done, setDone] = useState<TEventCertificatesResult | null>(null);
  return (
    <section className="review-section" aria-labelledby="certificates-title">
      <h2 id="certificates-title">{t('certificates.title')}</h2>
      <p className="review-muted">{t('certificates.lead')}</p>
      <Form<CertValues>
        layout="vertical"
        initialValues={{ awards: [], includeMentors: false }}
        onFinish={(v) => issue.mutate({ eventId: event.id, ...v }, { onSuccess: (result) => setDone(result) })}
      >
        <Form.Item
          name="certId"
          label={t('certificates.template')}
          rules={[{ required: true, message: t('certificates.templateRequired') }]}
        >
          <Select
            className="review-select"
            loading={templates.isLoading}
            aria-label={t('certificates.template')}
            options={(templates.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            notFoundContent={t('certificates.noTemplates')}
          />
        </Form.Item>
        <Form.Item name="awards" label={t('certificates.awards')} extra={t('certificates.awardsHint')}>
          <Select
            mode="multiple"
            className="review-select"
            aria-label={t('certificates.awards')}
            options={event.awards.map((a) => ({ value: a.name, label: a.name }))}
          />
        </Form.Item>
        <Form.Item name="includeMentors" valuePropName="checked">
          <Checkbox>{t('certificates.mentors')}</Checkbox>
        </Form.Item>
        <Refusal error={issue.error} />
        <Button kind="primary" htmlType="submit" icon={<SafetyCertificateOutlined />} loading={issue.isPending}>
          {t('certificates.issue')}
        </Button>
      </Form>
      {done && (
        <Alert
          className="review-section"
          type="success"
          showIcon
          title={t('certificates.done', { holders: done.holders })}
          description={t('certificates.doneHint')}
          action={
            <LinkButton kind="secondary" to={ADMIN_PATHS.certificateIssuance}>
              {t('certificates.toIssuance')}
            </LinkButton>
          }
        />
      )}
    </section>
  );
}

/**
 * The ranking: published in the last review round once every audited work is scored (4512 otherwise), with awards
 * and, for a review of several rounds, the round each work reached; then certificates.
 */
export function ReviewResultsTab({ event }: { event: TEvent }) {
  const { t } = useTranslation('eventReview');
  const results = useResults(event.id, event.resultsPublished);
  const publish = useReviewMutation(reviewCalls.publish);
  const [modal, host] = Modal.useModal();
  const published = publish.data ?? results.data ?? null;
  const progress = useReviewProgress(event.id, undefined, !event.resultsPublished);
  // Results come after the last round: while one remains, publishing waits for it.
  const roundsLeft = progress.data && progress.data.currentRound < progress.data.rounds ? progress.data : null;
  const roundName = useRoundName(published?.rounds ?? []);
  const trackName = (id: string) => event.tracks.find((tr) => tr.id === id)?.name ?? id;
  const confirm = () =>
    void modal.confirm({
      width: UI_SIZES.confirmDialogWidth,
      title: t('results.confirmTitle'),
      content: t('results.confirmBody'),
      okText: t('results.publish'),
      cancelText: t('common.cancel'),
      onOk: () => publish.mutate(event.id, { onSuccess: () => toast.success(t('results.published')) }),
    });
  return (
    <>
      {host}
      {!published && (
        <div className="review-toolbar">
          <Button
            kind="primary"
            icon={<TrophyOutlined />}
            loading={publish.isPending}
            disabled={!!roundsLeft}
            onClick={confirm}
          >
            {t('results.publish')}
          </Button>
          <span className="review-muted">{t('results.publishHint')}</span>
        </div>
      )}
      {!published && roundsLeft && (
        <Alert
          type="info"
          showIcon
          title={t('results.roundsLeft', { round: roundsLeft.currentRound, rounds: roundsLeft.rounds })}
        />
      )}
      <Refusal error={publish.error} />
      {results.isLoading ? (
        <Skeleton active />
      ) : published ? (
        <>
          <p>
            {t('results.publishedAt', { at: formatDateTime(published.publishedAt) })}{' '}
            {t(`tieRules.${published.tieRule}`)}
          </p>
          <Table<TResultRow>
            rowKey="workId"
            dataSource={published.rows}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty description={t('results.empty')} /> }}
            columns={[
              { title: t('results.rank'), dataIndex: 'rank' },
              { title: t('works.name'), dataIndex: 'workName' },
              { title: t('audit.team'), key: 'team', render: (_, r) => `${r.teamName} · ${r.schoolName}` },
              { title: t('audit.track'), key: 'track', render: (_, r) => trackName(r.trackId) },
              ...(published.rounds.length > 1
                ? [
                    {
                      title: t('results.round'),
                      key: 'round',
                      render: (_: unknown, r: TResultRow) => roundName(r.round),
                    },
                  ]
                : []),
              { title: t('results.score'), dataIndex: 'score' },
              { title: t('results.award'), key: 'award', render: (_: unknown, r: TResultRow) => r.award ?? '—' },
            ]}
          />
          <Certificates event={event} />
        </>
      ) : (
        <Empty description={t('results.notYet')} />
      )}
    </>
  );
}
