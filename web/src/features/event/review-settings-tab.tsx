import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  EVENT_LIMITS,
  SCORING_TYPES,
  type ScoringType,
  type TEvent,
  type TEventTrack,
  type TReviewSettings,
  type TReviewSettingsView,
} from '@aiedu/contracts';
import { DatePicker, Form, Input, InputNumber, Radio, Skeleton, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { dayjs } from '../../ui/dates';
import { formatBytes } from '../../ui/sizes';
import { reviewCalls, useReviewMutation, useReviewSettings } from './review-api';
import { Refusal } from './review-kit';
import { FirstRoundFields, LaterRoundsFields, type RoundValues } from './review-rounds-fields';

interface SettingsValues {
  scoringType: ScoringType;
  criteria: { id?: string; name: string; weight: number }[];
  groupCount: number;
  judgesPerGroup: number;
  worksPerGroup: number;
  rules: string;
  date: Dayjs | null;
  roundName: string;
  rounds: RoundValues[];
}

/** A stable id for a new criterion, from its name when it can be, unique among the others. */
function criterionId(name: string, taken: Set<string>): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 30) || 'criterion';
  let id = base;
  for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** A PDF (the judges' manual or the review sheet) uploaded when picked; answers its key. */
function PdfPick({
  eventId,
  kind,
  url,
  onUploaded,
}: {
  eventId: string;
  kind: 'manual' | 'sheet';
  url: string | null;
  onUploaded: (key: string) => void;
}) {
  const { t } = useTranslation('eventReview');
  const upload = useReviewMutation(reviewCalls.uploadFile);
  const [tooLarge, setTooLarge] = useState(false);
  return (
    <div className="review-file-pick">
      <label>
        {t(`settings.${kind}`)}
        <input
          type="file"
          accept=".pdf,application/pdf"
          disabled={upload.isPending}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            setTooLarge(file.size > EVENT_LIMITS.sheetBytes);
            if (file.size <= EVENT_LIMITS.sheetBytes)
              upload.mutate({ eventId, kind, file }, { onSuccess: (image) => onUploaded(image.key) });
          }}
        />
      </label>
      <p className="review-muted">
        {upload.isSuccess
          ? t('settings.uploaded')
          : url
            ? t('settings.hasFile')
            : t('settings.pdfHint', { size: formatBytes(EVENT_LIMITS.sheetBytes) })}
      </p>
      {url && !upload.isSuccess && (
        <a href={url} target="_blank" rel="noreferrer">
          {t('settings.openFile', { file: t(`settings.${kind}`) })}
        </a>
      )}
      {tooLarge && <p role="alert">{t('form.tooLarge', { size: formatBytes(EVENT_LIMITS.sheetBytes) })}</p>}
      <Refusal error={upload.error} />
    </div>
  );
}

function SettingsForm({ event, settings }: { event: TEvent; settings: TReviewSettingsView | null }) {
  const { t } = useTranslation('eventReview');
  const [form] = Form.useForm<SettingsValues>();
  const [files, setFiles] = useState({ manualKey: settings?.manualKey ?? null, sheetKey: settings?.sheetKey ?? null });
  const save = useReviewMutation(reviewCalls.saveSettings);
  const scoringType = Form.useWatch('scoringType', form);
  const finish = (v: SettingsValues) => {
    const taken = new Set(v.criteria.flatMap((c) => (c.id ? [c.id] : [])));
    const body: TReviewSettings = {
      scoringType: v.scoringType,
      criteria:
        v.scoringType === 'criteria'
          ? v.criteria.map((c) => ({ id: c.id ?? criterionId(c.name, taken), name: c.name.trim(), weight: c.weight }))
          : [],
      groupCount: v.groupCount,
      judgesPerGroup: v.judgesPerGroup,
      worksPerGroup: v.worksPerGroup,
      rules: v.rules,
      date: v.date ? v.date.format('YYYY-MM-DD') : null,
      roundName: v.roundName.trim(),
      rounds: v.rounds.map((r) => ({
        name: r.name.trim(),
        advance: r.advance,
        groupCount: r.groupCount,
        judgesPerGroup: r.judgesPerGroup,
        worksPerGroup: r.worksPerGroup ?? 0,
      })),
      ...files,
    };
    save.mutate({ eventId: event.id, settings: body }, { onSuccess: () => toast.success(t('settings.saved')) });
  };
  return (
    <Form<SettingsValues>
      form={form}
      layout="vertical"
      className="review-settings"
      initialValues={{
        scoringType: settings?.scoringType ?? 'criteria',
        criteria: settings?.criteria ?? [{ name: '', weight: 1 }],
        groupCount: settings?.groupCount ?? 1,
        judgesPerGroup: settings?.judgesPerGroup ?? 3,
        worksPerGroup: settings?.worksPerGroup ?? 0,
        rules: settings?.rules ?? '',
        date: settings?.date ? dayjs(settings.date) : null,
        roundName: settings?.roundName ?? '',
        rounds: settings?.rounds ?? [],
      }}
      onFinish={finish}
    >
      <Form.Item name="scoringType" label={t('settings.scoringType')}>
        <Radio.Group options={SCORING_TYPES.map((s) => ({ value: s, label: t(`scoringTypes.${s}`) }))} />
      </Form.Item>
      {scoringType !== 'overall' && (
        <Form.List name="criteria">
          {(fields, { add, remove }) => (
            <fieldset className="review-criteria">
              <legend>{t('settings.criteria')}</legend>
              {fields.map((field, i) => (
                <Space key={field.key} align="start" wrap>
                  <Form.Item
                    name={[field.name, 'name']}
                    label={t('settings.criterionName', { n: i + 1 })}
                    rules={[{ required: true, whitespace: true, message: t('settings.criterionRequired') }]}
                  >
                    <Input maxLength={EVENT_LIMITS.criterionName} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'weight']}
                    label={t('settings.weight', { n: i + 1 })}
                    rules={[{ required: true, message: t('settings.weightRequired') }]}
                  >
                    <InputNumber min={0.1} max={100} step={0.5} />
                  </Form.Item>
                  <Button
                    kind="ghost"
                    className="review-criteria__remove"
                    icon={<DeleteOutlined />}
                    aria-label={t('settings.removeCriterion', { n: i + 1 })}
                    disabled={fields.length === 1}
                    onClick={() => remove(field.name)}
                  />
                </Space>
              ))}
              <Button
                icon={<PlusOutlined />}
                disabled={fields.length >= EVENT_LIMITS.criteria}
                onClick={() => add({ name: '', weight: 1 })}
              >
                {t('settings.addCriterion')}
              </Button>
            </fieldset>
          )}
        </Form.List>
      )}
      <FirstRoundFields />
      <LaterRoundsFields />
      <Form.Item name="date" label={t('settings.date')}>
        <DatePicker />
      </Form.Item>
      <Form.Item name="rules" label={t('settings.rules')}>
        <Input.TextArea rows={5} maxLength={EVENT_LIMITS.rules} showCount />
      </Form.Item>
      <Space wrap align="start" size="large">
        <PdfPick
          eventId={event.id}
          kind="manual"
          url={settings?.manualUrl ?? null}
          onUploaded={(key) => setFiles((f) => ({ ...f, manualKey: key }))}
        />
        <PdfPick
          eventId={event.id}
          kind="sheet"
          url={settings?.sheetUrl ?? null}
          onUploaded={(key) => setFiles((f) => ({ ...f, sheetKey: key }))}
        />
      </Space>
      <Refusal error={save.error} />
      <Button kind="primary" htmlType="submit" loading={save.isPending}>
        {t('settings.save')}
      </Button>
    </Form>
  );
}

/** The evaluation of an auto-scored track: the organiser's script and the hidden answers. */
function Evaluation({ event, track }: { event: TEvent; track: TEventTrack }) {
  const { t } = useTranslation('eventReview');
  const [script, setScript] = useState<File | null>(null);
  const [answers, setAnswers] = useState<File | null>(null);
  const send = useReviewMutation(reviewCalls.evaluation);
  return (
    <section className="review-section" aria-labelledby={`evaluation-${track.id}`}>
      <h2 id={`evaluation-${track.id}`}>{t('evaluation.title', { track: track.name })}</h2>
      <p className="review-muted">{t('evaluation.lead')}</p>
      <Space wrap align="end">
        <label className="review-file-pick">
          {t('evaluation.script', { size: formatBytes(EVENT_LIMITS.scriptBytes) })}
          <input type="file" accept=".py" onChange={(e) => setScript(e.target.files?.[0] ?? null)} />
        </label>
        <label className="review-file-pick">
          {t('evaluation.answers', { size: formatBytes(EVENT_LIMITS.answersBytes) })}
          <input type="file" onChange={(e) => setAnswers(e.target.files?.[0] ?? null)} />
        </label>
        <Button
          disabled={!script || !answers}
          loading={send.isPending}
          onClick={() =>
            script &&
            answers &&
            send.mutate(
              { eventId: event.id, trackId: track.id, script, answers },
              { onSuccess: () => toast.success(t('evaluation.saved', { track: track.name })) },
            )
          }
        >
          {t('evaluation.upload')}
        </Button>
      </Space>
      <Refusal error={send.error} />
    </section>
  );
}

/** How the works are reviewed: scoring, criteria, groups, rules, date, the manual and sheet; auto tracks' evaluation. */
export function ReviewSettingsTab({ event }: { event: TEvent }) {
  const settings = useReviewSettings(event.id);
  if (settings.isLoading) return <Skeleton active />;
  return (
    <>
      <SettingsForm event={event} settings={settings.data ?? null} />
      {event.tracks
        .filter((track) => track.kind === 'auto')
        .map((track) => (
          <Evaluation key={track.id} event={event} track={track} />
        ))}
    </>
  );
}
