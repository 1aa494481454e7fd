import { ArrowLeftOutlined, PlusOutlined, SaveOutlined, SendOutlined, StopOutlined } from '@ant-design/icons';
import {
  EVENT_LIMITS,
  UI_SIZES,
  type TeamRole,
  type TEvent,
  type TRegistration,
  type TUserInfo,
} from '@aiedu/contracts';
import { Alert, Form, Input, Modal, Select, Skeleton, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { toast } from '../../app/feedback';
import { SignInRequired } from '../../app/sign-in-required';
import { useUserInfo } from '../../app/user-info';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { LinkButton } from '../../ui/link-button';
import { useLeaveGuard } from '../../ui/use-leave-guard';
import { declarationCalls, useDeclarationMutation, useRegistration } from './declaration-api';
import { eventPaths, useEvent } from './event-api';
import { EventError, RegistrationStateTag, registrationOpenAt } from './event-labels';
import { serverMessage } from '../../app/api-client';
import { MemberCard, memberPayload, memberValues, type MemberValues } from './member-fields';
import './event.css';

interface DeclarationValues {
  teamName: string;
  trackId: string;
  applicants: MemberValues[];
  mentors: MemberValues[];
}

const blank = (role: TeamRole): MemberValues => memberValues({ role, name: '' });

function meAsApplicant(info: TUserInfo | undefined): MemberValues {
  return memberValues({
    role: 'applicant',
    userId: info?.id ?? null,
    name: info?.realName || info?.nickname || info?.username || '',
    birthday: info?.birthDay ?? null,
    school: info?.schoolName ?? '',
    phone: info?.phone ?? '',
    email: info?.email ?? '',
  });
}

function valuesOf(event: TEvent, registration: TRegistration | null, me: TUserInfo | undefined): DeclarationValues {
  if (!registration)
    return { teamName: '', trackId: event.tracks[0]?.id ?? '', applicants: [meAsApplicant(me)], mentors: [] };
  return {
    teamName: registration.teamName,
    trackId: registration.trackId,
    applicants: registration.members.filter((m) => m.role === 'applicant').map(memberValues),
    mentors: registration.members.filter((m) => m.role === 'mentor').map(memberValues),
  };
}

/** Applicants or mentors: added and removed within the event's limits, counted again before anything is sent. */
function MembersList({
  role,
  min,
  max,
  readOnly,
  meId,
}: {
  role: TeamRole;
  min: number;
  max: number;
  readOnly: boolean;
  meId?: string;
}) {
  const { t } = useTranslation('event');
  const list = role === 'applicant' ? 'applicants' : 'mentors';
  const members = Form.useWatch<MemberValues[] | undefined>(list) ?? [];
  const message = t(`declaration.${role}Count`, { min, max });
  return (
    <Form.List
      name={list}
      rules={[
        {
          validator: (_rule, value: unknown[] | undefined) =>
            (value?.length ?? 0) >= min && (value?.length ?? 0) <= max
              ? Promise.resolve()
              : Promise.reject(new Error(message)),
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <section className="event-section" aria-labelledby={`declaration-${list}`}>
          <h2 id={`declaration-${list}`}>{t(`declaration.${list}`)}</h2>
          <p className="event-muted">{message}</p>
          {fields.map((field, index) => (
            <MemberCard
              key={field.key}
              list={list}
              name={field.name}
              index={index}
              role={role}
              readOnly={readOnly}
              me={Boolean(meId) && members[index]?.userId === meId}
              onRemove={readOnly ? undefined : () => remove(field.name)}
            />
          ))}
          <div role="alert">
            <Form.ErrorList errors={errors} />
          </div>
          {!readOnly && (
            <Button icon={<PlusOutlined />} disabled={fields.length >= max} onClick={() => add(blank(role))}>
              {t(`declaration.add${role === 'applicant' ? 'Applicant' : 'Mentor'}`)}
            </Button>
          )}
        </section>
      )}
    </Form.List>
  );
}

function Declaration({
  event,
  registration,
  me,
}: {
  event: TEvent;
  registration: TRegistration | null;
  me?: TUserInfo;
}) {
  const { t } = useTranslation('event');
  const [form] = Form.useForm<DeclarationValues>();
  const [modal, modalHost] = Modal.useModal();
  const [refusal, setRefusal] = useState<string>();
  const [initial] = useState(() => valuesOf(event, registration, me));
  const { host, setDirty } = useLeaveGuard({
    title: t('form.leaveTitle'),
    body: t('form.leaveBody'),
    leave: t('form.leave'),
    stay: t('form.stay'),
  });
  const save = useDeclarationMutation(declarationCalls.save);
  const submit = useDeclarationMutation(declarationCalls.submit);
  const withdraw = useDeclarationMutation(declarationCalls.withdraw);
  const state = registration?.state ?? null;
  const readOnly = state !== null && state !== 'inProgress';

  const saveValues = async () => {
    const values = await form.validateFields();
    setRefusal(undefined);
    const saved = await save.mutateAsync({
      eventId: event.id,
      trackId: values.trackId,
      teamName: values.teamName.trim(),
      members: [...values.applicants, ...values.mentors].map(memberPayload),
    });
    setDirty(false);
    return saved;
  };
  const run = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      toast.success(done);
    } catch (error) {
      const message = serverMessage(error);
      if (message) setRefusal(message);
    }
  };
  const send = () =>
    run(async () => {
      const saved = await saveValues();
      await submit.mutateAsync(saved.id);
    }, t('declaration.sent'));
  const confirmWithdraw = () =>
    modal.confirm({
      width: UI_SIZES.confirmDialogWidth,
      title: t('declaration.withdrawTitle'),
      content: t('declaration.withdrawBody'),
      okText: t('declaration.withdraw'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () => run(() => withdraw.mutateAsync(registration!.id), t('declaration.withdrawn')),
    });

  return (
    <>
      {host}
      {modalHost}
      <Form<DeclarationValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        disabled={readOnly}
        initialValues={initial}
        onValuesChange={() => setDirty(true)}
        // Sending is the form's submission (Enter in a field sends too); saving a draft is the other button.
        onFinish={() => void send()}
      >
        {state && (
          <Space wrap className="event-section">
            <span>{t('declaration.state')}</span>
            <RegistrationStateTag state={state} />
          </Space>
        )}
        {registration?.refuseReason && (
          <Alert type="warning" showIcon title={t('declaration.refused', { reason: registration.refuseReason })} />
        )}
        {readOnly && state !== 'ended' && <Alert type="info" showIcon title={t('declaration.readOnly')} />}
        <div className="event-form__row event-section">
          <Form.Item
            name="teamName"
            label={t('declaration.teamName')}
            rules={[{ required: true, whitespace: true, message: t('declaration.teamNameRequired') }]}
          >
            <Input maxLength={EVENT_LIMITS.teamName} />
          </Form.Item>
          <Form.Item
            name="trackId"
            label={t('declaration.track')}
            rules={[{ required: true, message: t('declaration.trackRequired') }]}
          >
            <Select
              aria-label={t('declaration.track')}
              options={event.tracks.map((track) => ({ value: track.id, label: track.name }))}
            />
          </Form.Item>
        </div>
        <MembersList role="applicant" min={event.teamMin} max={event.teamMax} readOnly={readOnly} meId={me?.id} />
        <MembersList role="mentor" min={Math.max(1, event.mentorMin)} max={event.mentorMax} readOnly={readOnly} />
        <FormError message={refusal} />
        <div className="event-actions event-section">
          {!readOnly && (
            <>
              <Button kind="primary" size="large" icon={<SendOutlined />} loading={submit.isPending} htmlType="submit">
                {t('declaration.send')}
              </Button>
              <Button
                icon={<SaveOutlined />}
                loading={save.isPending && !submit.isPending}
                onClick={() => void run(saveValues, t('declaration.saved'))}
              >
                {t('declaration.save')}
              </Button>
            </>
          )}
          {registration && state !== 'ended' && (
            // A sent declaration is read-only, yet the team may still withdraw: this button is not the form's to disable.
            <Button danger disabled={false} icon={<StopOutlined />} onClick={confirmWithdraw}>
              {t('declaration.withdraw')}
            </Button>
          )}
        </div>
      </Form>
    </>
  );
}

function DeclarationLoader({ eventId }: { eventId: string }) {
  const { t } = useTranslation('event');
  const event = useEvent(eventId);
  const registration = useRegistration(eventId);
  const me = useUserInfo();
  if (event.isLoading || registration.isLoading || me.isLoading) return <Skeleton active />;
  if (!event.data) return <EventError error={event.error} />;
  if (registration.isError) return <EventError error={registration.error} />;
  const closed = !registration.data && !registrationOpenAt(event.data.phases, event.data.serverTime);
  return (
    <>
      <header className="event-head">
        <div>
          <LinkButton kind="ghost" icon={<ArrowLeftOutlined />} to={eventPaths.detail(eventId)}>
            {event.data.name}
          </LinkButton>
          <h1>{t('declaration.title')}</h1>
          <p className="event-muted">{t('declaration.lead')}</p>
        </div>
      </header>
      {closed ? (
        <Alert type="info" showIcon title={t('declaration.closed')} />
      ) : (
        <Declaration event={event.data} registration={registration.data ?? null} me={me.data} />
      )}
    </>
  );
}

/** A team's registration and declaration: its name, track, applicants and mentors; saved, sent for the audit, or withdrawn. */
export function DeclarationPage() {
  const { t } = useTranslation('event');
  const { eventId } = useParams();
  return (
    <SignInRequired title={t('declaration.title')}>
      <div className="page event-form">{eventId && <DeclarationLoader eventId={eventId} />}</div>
    </SignInRequired>
  );
}
