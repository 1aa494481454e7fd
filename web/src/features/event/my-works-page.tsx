import { EditOutlined, PlusOutlined, RollbackOutlined, SendOutlined, StopOutlined } from '@ant-design/icons';
import { UI_SIZES, type TEvent, type TWork } from '@aiedu/contracts';
import { Alert, Empty, Modal, Skeleton, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/dates';
import { Table } from '../../ui/table';
import { Countdown, EventScreen, Refusal, WorkStateTag } from './review-kit';
import { WorkForm } from './work-form';
import { WorkRuns } from './work-runs';
import { useTeamRegistration, useWorkMutation, useWorks, workCalls } from './works-api';

type Action = 'submit' | 'recall' | 'withdraw';

/** Where the submission phase stands: a countdown to its end by the server's clock, its opening, or its close. */
function Deadline({ event }: { event: TEvent }) {
  const { t } = useTranslation('eventReview');
  const { submissionStart, submissionEnd } = event.phases;
  if (Date.parse(event.serverTime) < Date.parse(submissionStart))
    return <Alert type="info" showIcon title={t('works.opensAt', { at: formatDateTime(submissionStart) })} />;
  return (
    <div>
      <p className="review-muted">{t('works.deadline', { at: formatDateTime(submissionEnd) })}</p>
      <Countdown key={event.serverTime} deadline={submissionEnd} serverTime={event.serverTime} />
    </div>
  );
}

function WorkList({ event }: { event: TEvent }) {
  const { t } = useTranslation('eventReview');
  const works = useWorks(event.id);
  const registration = useTeamRegistration(event.id);
  const [editing, setEditing] = useState<TWork | 'new' | null>(null);
  const [modal, host] = Modal.useModal();
  const act = useWorkMutation(({ action, work }: { action: Action; work: TWork }) => workCalls[action](work.id));
  const run = async (action: Action, work: TWork) => {
    try {
      await act.mutateAsync({ action, work });
      toast.success(t(`works.done.${action}`, { name: work.name }));
    } catch {
      // Shown by <Refusal> above the list.
    }
  };
  const withdraw = (work: TWork) =>
    void modal.confirm({
      width: UI_SIZES.confirmDialogWidth,
      title: t('works.withdrawTitle', { name: work.name }),
      content: t('works.withdrawBody'),
      okText: t('works.withdraw'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () => run('withdraw', work),
    });
  const track = event.tracks.find((tr) => tr.id === registration.data?.trackId);
  const busy = (action: Action, work: TWork) =>
    act.isPending && act.variables.action === action && act.variables.work.id === work.id;
  return (
    <>
      {host}
      <div className="review-toolbar">
        <Button kind="primary" size="large" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('works.new')}
        </Button>
      </div>
      <Refusal error={act.error} />
      {works.isLoading ? (
        <Skeleton active />
      ) : (
        <Table<TWork>
          rowKey="id"
          dataSource={works.data ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('works.empty')} /> }}
          columns={[
            {
              title: t('works.name'),
              key: 'name',
              render: (_, w) => (
                <>
                  <strong>{w.name}</strong>
                  <div>
                    {w.tags.map((tag) => (
                      <Tag key={tag}>{tag}</Tag>
                    ))}
                  </div>
                </>
              ),
            },
            {
              title: t('works.state'),
              key: 'state',
              render: (_, w) => (
                <>
                  <WorkStateTag state={w.state} round={w.reviewRound} />
                  {w.state === 'FAIL' && w.failReason && (
                    <div className="review-muted">{t('works.failReason', { reason: w.failReason })}</div>
                  )}
                </>
              ),
            },
            {
              title: t('works.project'),
              key: 'project',
              render: (_, w) =>
                w.projectName ? `${w.projectName}${w.projectVersion ? ` (${w.projectVersion})` : ''}` : '—',
            },
            {
              title: t('works.submittedAt'),
              key: 'at',
              render: (_, w) => (w.submittedAt ? formatDateTime(w.submittedAt) : '—'),
            },
            ...(event.resultsPublished
              ? [
                  {
                    title: t('works.result'),
                    key: 'result',
                    render: (_: unknown, w: TWork) =>
                      w.rank === null ? (
                        '—'
                      ) : (
                        <>
                          {t('works.rank', { rank: w.rank, score: w.score ?? '—' })}{' '}
                          {w.award && <Tag color="gold">{w.award}</Tag>}
                        </>
                      ),
                  },
                ]
              : []),
            {
              title: t('common.actions'),
              key: 'actions',
              render: (_, w) => (
                <Space size={4} wrap>
                  {w.state === 'DRAFT' && (
                    <>
                      <Button
                        size="small"
                        icon={<EditOutlined />}
                        aria-label={t('works.editOne', { name: w.name })}
                        onClick={() => setEditing(w)}
                      >
                        {t('works.edit')}
                      </Button>
                      <Button
                        size="small"
                        kind="primary"
                        icon={<SendOutlined />}
                        aria-label={t('works.submitOne', { name: w.name })}
                        loading={busy('submit', w)}
                        onClick={() => void run('submit', w)}
                      >
                        {t('works.submit')}
                      </Button>
                    </>
                  )}
                  {w.state === 'SUBMITTED' && (
                    <Button
                      size="small"
                      icon={<RollbackOutlined />}
                      aria-label={t('works.recallOne', { name: w.name })}
                      loading={busy('recall', w)}
                      onClick={() => void run('recall', w)}
                    >
                      {t('works.recall')}
                    </Button>
                  )}
                  {['DRAFT', 'SUBMITTED', 'PENDING_REVIEW'].includes(w.state) && (
                    <Button
                      size="small"
                      danger
                      icon={<StopOutlined />}
                      aria-label={t('works.withdrawOne', { name: w.name })}
                      onClick={() => withdraw(w)}
                    >
                      {t('works.withdraw')}
                    </Button>
                  )}
                </Space>
              ),
            },
          ]}
        />
      )}
      {track?.kind === 'auto' && <WorkRuns eventId={event.id} track={track} />}
      {editing && (
        <WorkForm eventId={event.id} work={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}

/** A team's works for an event: drafts made, sent before the deadline, recalled or withdrawn; runs on auto-scored tracks. */
export function MyWorksPage() {
  const { t } = useTranslation('eventReview');
  const { eventId } = useParams();
  return (
    <EventScreen
      eventId={eventId}
      title={t('works.title')}
      lead={t('works.lead')}
      allowed={(event) => event.viewer.registrationId !== null}
      refusal={t('works.teamOnly')}
    >
      {(event) => (
        <>
          <Deadline event={event} />
          <WorkList event={event} />
        </>
      )}
    </EventScreen>
  );
}
