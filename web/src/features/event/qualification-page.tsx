import { ArrowLeftOutlined, CheckOutlined, CloseOutlined } from '@ant-design/icons';
import {
  EVENT_LIMITS,
  REGISTRATION_STATES,
  UI_SIZES,
  type RegistrationState,
  type TEvent,
  type TRegistration,
} from '@aiedu/contracts';
import { Checkbox, Drawer, Empty, Form, Input, Modal, Segmented, Skeleton, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { toast } from '../../app/feedback';
import { SignInRequired } from '../../app/sign-in-required';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/dates';
import { FormError } from '../../ui/form-error';
import { LinkButton } from '../../ui/link-button';
import { Table } from '../../ui/table';
import { declarationCalls, useDeclarationMutation, useQualification } from './declaration-api';
import { eventPaths, useEvent } from './event-api';
import { EventError, RegistrationStateTag } from './event-labels';
import { serverMessage } from '../../app/api-client';
import { RegistrationView } from './registration-view';
import './event.css';

const PAGE_SIZE = 20;

/** Refusing: the reason the team reads, and whether it may correct and send again or ends here. */
function RefuseDialog({ registration, onClose }: { registration: TRegistration; onClose: (done: boolean) => void }) {
  const { t } = useTranslation('event');
  const [form] = Form.useForm<{ reason: string; final: boolean }>();
  const [refusal, setRefusal] = useState<string>();
  const decide = useDeclarationMutation(declarationCalls.decide);
  const refuse = async ({ reason, final }: { reason: string; final: boolean }) => {
    setRefusal(undefined);
    try {
      await decide.mutateAsync({ registrationId: registration.id, decision: 'refuse', reason: reason.trim(), final });
      toast.success(t('qualification.refusedDone', { team: registration.teamName }));
      onClose(true);
    } catch (error) {
      setRefusal(serverMessage(error) ?? t('common.failed'));
    }
  };
  return (
    <Modal
      open
      width={UI_SIZES.confirmDialogWidth}
      title={t('qualification.refuseTitle', { team: registration.teamName })}
      okText={t('qualification.refuse')}
      okButtonProps={{ danger: true, loading: decide.isPending }}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
    >
      <Form form={form} layout="vertical" initialValues={{ reason: '', final: false }} onFinish={(v) => void refuse(v)}>
        <Form.Item
          name="reason"
          label={t('qualification.reason')}
          rules={[{ required: true, whitespace: true, message: t('qualification.reasonRequired') }]}
        >
          <Input.TextArea rows={3} maxLength={EVENT_LIMITS.reason} showCount />
        </Form.Item>
        <Form.Item name="final" valuePropName="checked" extra={t('qualification.finalHint')}>
          <Checkbox>{t('qualification.final')}</Checkbox>
        </Form.Item>
        <FormError message={refusal} />
      </Form>
    </Modal>
  );
}

function Audit({ event }: { event: TEvent }) {
  const { t } = useTranslation('event');
  const [state, setState] = useState<RegistrationState>('pendingReview');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<TRegistration | null>(null);
  const [refusing, setRefusing] = useState<TRegistration | null>(null);
  const list = useQualification(event.id, { page, size: PAGE_SIZE, state });
  const decide = useDeclarationMutation(declarationCalls.decide);
  const trackName = (id: string) => event.tracks.find((track) => track.id === id)?.name ?? id;
  const pass = async (registration: TRegistration) => {
    try {
      await decide.mutateAsync({ registrationId: registration.id, decision: 'pass' });
      toast.success(t('qualification.passedDone', { team: registration.teamName }));
      setOpen(null);
    } catch (error) {
      toast.error(serverMessage(error) ?? t('common.failed'));
    }
  };
  const decisions = (registration: TRegistration) =>
    registration.state === 'pendingReview' && (
      <Space wrap>
        <Button
          kind="primary"
          icon={<CheckOutlined />}
          loading={decide.isPending}
          onClick={() => void pass(registration)}
        >
          {t('qualification.pass')}
        </Button>
        <Button danger icon={<CloseOutlined />} onClick={() => setRefusing(registration)}>
          {t('qualification.refuse')}
        </Button>
      </Space>
    );
  return (
    <>
      <Segmented
        aria-label={t('qualification.stateFilter')}
        value={state}
        onChange={(value) => {
          setState(value);
          setPage(1);
        }}
        options={REGISTRATION_STATES.map((s) => ({ value: s, label: t(`registrationStates.${s}`) }))}
      />
      <Table<TRegistration>
        className="event-section"
        rowKey="id"
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: list.isPending ? <span /> : <Empty description={t('qualification.empty')} /> }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          hideOnSinglePage: true,
          onChange: setPage,
        }}
        columns={[
          { title: t('declaration.teamName'), dataIndex: 'teamName' },
          { title: t('results.school'), dataIndex: 'schoolName' },
          { title: t('qualification.leader'), dataIndex: 'leaderName' },
          { title: t('declaration.track'), key: 'track', render: (_, r) => trackName(r.trackId) },
          { title: t('qualification.members'), key: 'members', render: (_, r) => r.members.length },
          {
            title: t('qualification.sentAt'),
            key: 'sent',
            render: (_, r) => (r.submittedAt ? formatDateTime(r.submittedAt) : '—'),
          },
          { title: t('declaration.state'), key: 'state', render: (_, r) => <RegistrationStateTag state={r.state} /> },
          {
            title: t('qualification.actions'),
            key: 'actions',
            render: (_, r) => (
              <Button size="small" onClick={() => setOpen(r)}>
                {t('qualification.view', { team: r.teamName })}
              </Button>
            ),
          },
        ]}
      />
      {open && (
        <Drawer
          open
          width={640}
          title={t('qualification.drawerTitle', { team: open.teamName })}
          onClose={() => setOpen(null)}
          extra={decisions(open)}
        >
          {/* The declaration is long and only text: its scrolling body takes the focus so keyboards scroll it too. */}
          <div ref={(node) => node?.closest('.ant-drawer-body')?.setAttribute('tabindex', '0')}>
            {open.refuseReason && <p>{t('declaration.refused', { reason: open.refuseReason })}</p>}
            <RegistrationView registration={open} trackName={trackName(open.trackId)} />
          </div>
        </Drawer>
      )}
      {refusing && (
        <RefuseDialog
          registration={refusing}
          onClose={(done) => {
            setRefusing(null);
            if (done) setOpen(null);
          }}
        />
      )}
    </>
  );
}

function AuditLoader({ eventId }: { eventId: string }) {
  const { t } = useTranslation('event');
  const event = useEvent(eventId);
  if (event.isLoading) return <Skeleton active />;
  if (!event.data) return <EventError error={event.error} />;
  if (!event.data.viewer.organiser) return <EventError error={null} reason={t('form.organiserOnly')} />;
  return (
    <>
      <header>
        <LinkButton kind="ghost" icon={<ArrowLeftOutlined />} to={eventPaths.detail(eventId)}>
          {event.data.name}
        </LinkButton>
        <h1>{t('qualification.title')}</h1>
        <p className="event-muted">{t('qualification.lead')}</p>
      </header>
      <Audit event={event.data} />
    </>
  );
}

/** The organisers' qualification audit: registrations by state, each declaration in full, passed or refused with a reason. */
export function QualificationPage() {
  const { t } = useTranslation('event');
  const { eventId } = useParams();
  return (
    <SignInRequired title={t('qualification.title')}>
      <div className="page event-page">{eventId && <AuditLoader eventId={eventId} />}</div>
    </SignInRequired>
  );
}
