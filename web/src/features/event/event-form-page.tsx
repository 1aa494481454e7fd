import { ArrowLeftOutlined } from '@ant-design/icons';
import {
  EDU_STAGES,
  EVENT_API,
  EVENT_LIMITS,
  TIE_RULES,
  type TCreateEventRequest,
  type TEvent,
  type TieRule,
} from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, InputNumber, Radio, Select, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { toast } from '../../app/feedback';
import { useAdminAccess } from '../admin/admin-access';
import { SignInRequired } from '../../app/sign-in-required';
import { Button } from '../../ui/button';
import { dayjs } from '../../ui/dates';
import { FormError } from '../../ui/form-error';
import { LinkButton } from '../../ui/link-button';
import { useLeaveGuard } from '../../ui/use-leave-guard';
import { eventPaths, useEvent } from './event-api';
import { AwardsField, CoverField, DescriptionField, PhaseFields, TracksField, type Range } from './event-form-fields';
import { EventError } from './event-labels';
import { serverMessage } from '../../app/api-client';
import { eventCalls } from './event-list-api';
import './event.css';

interface EventFormValues {
  name: string;
  description: string;
  tracks: TCreateEventRequest['tracks'];
  registration?: Range;
  submission?: Range;
  review?: Range;
  results?: ReturnType<typeof dayjs>;
  stages: (typeof EDU_STAGES)[number][];
  grades: number[];
  teamMin: number;
  teamMax: number;
  mentorMin: number;
  mentorMax: number;
  awards: { name: string; count: number }[];
  tieRule: TieRule;
}

/** A new track's id: stable once saved, as works, runs and judges' groups name it. */
const newTrackId = () => `track-${Math.random().toString(36).slice(2, 10)}`;

const range = (from: string, to: string): Range => [dayjs(from), dayjs(to)];

function valuesOf(event: TEvent | undefined, firstTrackId: string): EventFormValues {
  const p = event?.phases;
  return {
    name: event?.name ?? '',
    description: event?.description ?? '',
    tracks: event?.tracks ?? [{ id: firstTrackId, name: '', kind: 'judged', dailyRuns: 5, higherIsBetter: true }],
    registration: p && range(p.registrationStart, p.registrationEnd),
    submission: p && range(p.submissionStart, p.submissionEnd),
    review: p && range(p.reviewStart, p.reviewEnd),
    results: p && dayjs(p.resultsAt),
    stages: event?.eligibility.stages ?? [],
    grades: event?.eligibility.grades ?? [],
    teamMin: event?.teamMin ?? 1,
    teamMax: event?.teamMax ?? 3,
    mentorMin: event?.mentorMin ?? 1,
    mentorMax: event?.mentorMax ?? 2,
    awards: event?.awards ?? [],
    tieRule: event?.tieRule ?? 'earlierSubmission',
  };
}

/** What the server is sent: the form's values with the phases as instants and what the form does not show kept. */
function payloadOf(values: EventFormValues, coverKey: string | null, event?: TEvent): TCreateEventRequest {
  const [registration, submission, review] = [values.registration!, values.submission!, values.review!];
  return {
    name: values.name.trim(),
    coverKey,
    description: values.description,
    tracks: values.tracks.map((track) => ({
      id: track.id,
      name: track.name.trim(),
      kind: track.kind,
      dailyRuns: track.dailyRuns ?? 5,
      higherIsBetter: track.higherIsBetter ?? true,
    })),
    phases: {
      registrationStart: registration[0].toISOString(),
      registrationEnd: registration[1].toISOString(),
      submissionStart: submission[0].toISOString(),
      submissionEnd: submission[1].toISOString(),
      reviewStart: review[0].toISOString(),
      reviewEnd: review[1].toISOString(),
      resultsAt: values.results!.toISOString(),
    },
    eligibility: {
      customerIds: event?.eligibility.customerIds ?? [],
      stages: values.stages,
      grades: values.grades,
    },
    teamMin: values.teamMin,
    teamMax: values.teamMax,
    mentorMin: values.mentorMin,
    mentorMax: values.mentorMax,
    awards: values.awards.map((a) => ({ name: a.name.trim(), count: a.count })),
    tieRule: values.tieRule,
    platformWide: event?.platformWide ?? false,
  };
}

/** A maximum no smaller than its minimum field. */
const atLeast =
  (minField: string, message: string) =>
  ({ getFieldValue }: { getFieldValue: (n: string) => unknown }) => ({
    validator: (_rule: unknown, value: number | undefined) =>
      value !== undefined && value < (getFieldValue(minField) as number)
        ? Promise.reject(new Error(message))
        : Promise.resolve(),
  });

function EventForm({ event }: { event?: TEvent }) {
  const { t } = useTranslation('event');
  const navigate = useNavigate();
  const client = useQueryClient();
  const [form] = Form.useForm<EventFormValues>();
  const [cover, setCover] = useState({ key: event?.coverKey ?? null, url: event?.coverUrl ?? null });
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const [initial] = useState(() => valuesOf(event, newTrackId()));
  const { host, setDirty } = useLeaveGuard({
    title: t('form.leaveTitle'),
    body: t('form.leaveBody'),
    leave: t('form.leave'),
    stay: t('form.stay'),
  });

  const submit = async (values: EventFormValues) => {
    setBusy(true);
    setRefusal(undefined);
    const body = payloadOf(values, cover.key, event);
    try {
      const saved = event ? await eventCalls.update({ ...body, id: event.id }) : await eventCalls.create(body);
      setDirty(false);
      toast.success(t(event ? 'form.saved' : 'form.created'));
      await client.invalidateQueries({ queryKey: [EVENT_API.events] });
      await client.invalidateQueries({ queryKey: [EVENT_API.detail, saved.id] });
      void navigate(eventPaths.detail(saved.id));
    } catch (error) {
      setRefusal(serverMessage(error) ?? t('common.failed'));
    } finally {
      setBusy(false);
    }
  };

  const section = (id: string, title: string) => (
    <h2 id={id} className="event-section">
      {title}
    </h2>
  );
  return (
    <Form<EventFormValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={initial}
      onValuesChange={() => setDirty(true)}
      onFinish={(values) => void submit(values)}
      scrollToFirstError
    >
      {host}
      {section('event-form-about', t('form.about'))}
      <Form.Item
        name="name"
        label={t('form.name')}
        rules={[{ required: true, whitespace: true, message: t('form.nameRequired') }]}
      >
        <Input maxLength={EVENT_LIMITS.name} showCount />
      </Form.Item>
      <Form.Item label={t('form.cover')}>
        <CoverField
          url={cover.url}
          onChange={(key, url) => {
            setCover({ key, url });
            setDirty(true);
          }}
        />
      </Form.Item>
      <DescriptionField />
      {section('event-form-tracks', t('form.tracks'))}
      <TracksField newId={newTrackId} />
      {section('event-form-phases', t('form.phases'))}
      <p className="event-muted">{t('form.phasesHint')}</p>
      <PhaseFields />
      {section('event-form-who', t('form.who'))}
      <div className="event-form__row">
        <Form.Item name="stages" label={t('form.stages')} extra={t('form.anyoneHint')}>
          <Select
            mode="multiple"
            aria-label={t('form.stages')}
            options={EDU_STAGES.map((s) => ({ value: s, label: t(`stages.${s}`) }))}
          />
        </Form.Item>
        <Form.Item name="grades" label={t('form.grades')} extra={t('form.anyoneHint')}>
          <Select
            mode="multiple"
            aria-label={t('form.grades')}
            options={Array.from({ length: 12 }, (_, i) => ({ value: i + 1, label: t('form.grade', { grade: i + 1 }) }))}
          />
        </Form.Item>
      </div>
      <div className="event-form__row">
        <Form.Item name="teamMin" label={t('form.teamMin')}>
          <InputNumber min={1} max={EVENT_LIMITS.teamMax} precision={0} />
        </Form.Item>
        <Form.Item
          name="teamMax"
          label={t('form.teamMax')}
          dependencies={['teamMin']}
          rules={[atLeast('teamMin', t('form.teamOrder'))]}
        >
          <InputNumber min={1} max={EVENT_LIMITS.teamMax} precision={0} />
        </Form.Item>
        <Form.Item name="mentorMin" label={t('form.mentorMin')}>
          <InputNumber min={1} max={EVENT_LIMITS.mentorMax} precision={0} />
        </Form.Item>
        <Form.Item
          name="mentorMax"
          label={t('form.mentorMax')}
          dependencies={['mentorMin']}
          rules={[atLeast('mentorMin', t('form.mentorOrder'))]}
        >
          <InputNumber min={1} max={EVENT_LIMITS.mentorMax} precision={0} />
        </Form.Item>
      </div>
      {section('event-form-awards', t('form.awards'))}
      <AwardsField />
      <Form.Item name="tieRule" label={t('form.tieRule')} className="event-section">
        <Radio.Group options={TIE_RULES.map((r) => ({ value: r, label: t(`tieRules.${r}`) }))} />
      </Form.Item>
      <FormError message={refusal} />
      <Button kind="primary" size="large" htmlType="submit" loading={busy}>
        {t(event ? 'form.save' : 'form.create')}
      </Button>
    </Form>
  );
}

function EditForm({ eventId }: { eventId: string }) {
  const { t } = useTranslation('event');
  const detail = useEvent(eventId);
  if (detail.isLoading) return <Skeleton active />;
  if (!detail.data) return <EventError error={detail.error} />;
  if (!detail.data.viewer.organiser) return <EventError error={null} reason={t('form.organiserOnly')} />;
  return <EventForm key={detail.data.id} event={detail.data} />;
}

/** A new event: for those who organise events. */
function NewForm() {
  const { t } = useTranslation('event');
  return useAdminAccess().can('event.manage') ? (
    <EventForm />
  ) : (
    <EventError error={null} reason={t('form.organiserOnly')} />
  );
}

/** Organisers create an event or change their own: its tracks, dated phases, who may take part, teams and awards. */
export function EventFormPage() {
  const { t } = useTranslation('event');
  const { eventId } = useParams();
  const title = t(eventId ? 'form.editTitle' : 'form.newTitle');
  return (
    <SignInRequired title={title}>
      <div className="page event-form">
        <header>
          <LinkButton
            kind="ghost"
            icon={<ArrowLeftOutlined />}
            to={eventId ? eventPaths.detail(eventId) : eventPaths.list}
          >
            {t(eventId ? 'form.backToEvent' : 'common.toList')}
          </LinkButton>
          <h1>{title}</h1>
        </header>
        {eventId ? <EditForm eventId={eventId} /> : <NewForm />}
      </div>
    </SignInRequired>
  );
}
