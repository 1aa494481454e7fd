import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { EVENT_LIMITS, TRACK_KINDS } from '@aiedu/contracts';
import { Card, Checkbox, DatePicker, Form, Input, InputNumber, Radio, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import type { dayjs } from '../../ui/dates';
import { MarkdownView } from '../course/markdown-view';
import { eventCalls } from './event-list-api';
import { ImageUpload } from './image-upload';

type Dayjs = ReturnType<typeof dayjs>;
export type Range = [Dayjs, Dayjs];

const DATE_FORMAT = 'YYYY-MM-DD HH:mm';

/** The cover: a JPG or PNG of at most 10 MB, uploaded at once; the form keeps its key. */
export function CoverField({ url, onChange }: { url: string | null; onChange: (key: string, url: string) => void }) {
  const { t } = useTranslation('event');
  return (
    <div>
      {url && <img src={url} alt={t('form.coverPreview')} className="event-cover-field__preview" />}
      <ImageUpload
        hasImage={Boolean(url)}
        maxBytes={EVENT_LIMITS.imageBytes}
        upload={eventCalls.uploadImage}
        onUploaded={(image) => onChange(image.key, image.url)}
        texts={{
          pick: t('form.coverPick'),
          change: t('form.coverChange'),
          hint: t('form.coverHint'),
          wrongType: t('form.coverType'),
          tooLarge: t('form.coverSize'),
          failed: t('common.failed'),
        }}
      />
    </div>
  );
}

/** The Markdown description, with a preview of what visitors will see. */
export function DescriptionField() {
  const { t } = useTranslation('event');
  const [preview, setPreview] = useState(false);
  const source = Form.useWatch<string>('description') ?? '';
  return (
    <>
      <Form.Item
        name="description"
        label={t('form.description')}
        extra={t('form.descriptionHint')}
        rules={[{ max: EVENT_LIMITS.description, message: t('form.tooLong', { max: EVENT_LIMITS.description }) }]}
      >
        <Input.TextArea rows={8} maxLength={EVENT_LIMITS.description} showCount />
      </Form.Item>
      <Checkbox checked={preview} onChange={(e) => setPreview(e.target.checked)}>
        {t('form.preview')}
      </Checkbox>
      {preview && (
        <Card size="small" className="event-section" title={t('form.preview')}>
          <MarkdownView source={source} />
        </Card>
      )}
    </>
  );
}

/** The tracks: each judged or auto-scored; auto-scored ones have a daily run limit and a direction. */
export function TracksField({ newId }: { newId: () => string }) {
  const { t } = useTranslation('event');
  const tracks = Form.useWatch<{ kind?: string }[] | undefined>('tracks');
  return (
    <Form.List
      name="tracks"
      rules={[
        {
          validator: (_rule, value: unknown[] | undefined) =>
            value?.length ? Promise.resolve() : Promise.reject(new Error(t('form.tracksRequired'))),
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <>
          {fields.map((field, index) => (
            <Card
              key={field.key}
              size="small"
              className="event-form__item-card"
              title={t('form.trackN', { n: index + 1 })}
            >
              <Form.Item name={[field.name, 'id']} hidden>
                <Input />
              </Form.Item>
              <div className="event-form__row">
                <Form.Item
                  name={[field.name, 'name']}
                  label={t('form.trackName')}
                  rules={[{ required: true, whitespace: true, message: t('form.trackNameRequired') }]}
                >
                  <Input maxLength={EVENT_LIMITS.trackName} />
                </Form.Item>
                <Form.Item name={[field.name, 'kind']} label={t('form.trackKind')}>
                  <Radio.Group options={TRACK_KINDS.map((k) => ({ value: k, label: t(`trackKinds.${k}`) }))} />
                </Form.Item>
                {tracks?.[index]?.kind === 'auto' && (
                  <>
                    <Form.Item name={[field.name, 'dailyRuns']} label={t('form.dailyRuns')}>
                      <InputNumber min={1} max={EVENT_LIMITS.dailyRunsMax} precision={0} />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'higherIsBetter']}
                      label={t('form.higherIsBetter')}
                      valuePropName="checked"
                    >
                      <Switch />
                    </Form.Item>
                  </>
                )}
              </div>
              {fields.length > 1 && (
                <Button danger icon={<DeleteOutlined />} onClick={() => remove(field.name)}>
                  {t('form.removeTrack', { n: index + 1 })}
                </Button>
              )}
            </Card>
          ))}
          <Form.ErrorList errors={errors} />
          {fields.length < EVENT_LIMITS.tracks && (
            <Button
              icon={<PlusOutlined />}
              onClick={() => add({ id: newId(), name: '', kind: 'judged', dailyRuns: 5, higherIsBetter: true })}
            >
              {t('form.addTrack')}
            </Button>
          )}
        </>
      )}
    </Form.List>
  );
}

/** Start and end of one phase; each phase begins no earlier than the one before it allows. */
export function PhaseFields() {
  const { t } = useTranslation('event');
  const picker = (label: string) => ({
    showTime: { format: 'HH:mm' },
    format: DATE_FORMAT,
    placeholder: [t('form.startOf', { phase: label }), t('form.endOf', { phase: label })] as [string, string],
  });
  const required = { required: true, message: t('form.phaseRequired') };
  return (
    <div className="event-form__row">
      <Form.Item name="registration" label={t('phases.registration')} rules={[required]}>
        <DatePicker.RangePicker {...picker(t('phases.registration'))} />
      </Form.Item>
      <Form.Item
        name="submission"
        label={t('phases.submission')}
        dependencies={['registration']}
        rules={[
          required,
          ({ getFieldValue }) => ({
            validator: (_rule, value: Range | undefined) => {
              const before = getFieldValue('registration') as Range | undefined;
              if (!value || !before) return Promise.resolve();
              return value[0].isBefore(before[0]) || value[1].isBefore(before[1])
                ? Promise.reject(new Error(t('form.order.submission')))
                : Promise.resolve();
            },
          }),
        ]}
      >
        <DatePicker.RangePicker {...picker(t('phases.submission'))} />
      </Form.Item>
      <Form.Item
        name="review"
        label={t('phases.review')}
        dependencies={['submission']}
        rules={[
          required,
          ({ getFieldValue }) => ({
            validator: (_rule, value: Range | undefined) => {
              const before = getFieldValue('submission') as Range | undefined;
              return value && before && value[0].isBefore(before[1])
                ? Promise.reject(new Error(t('form.order.review')))
                : Promise.resolve();
            },
          }),
        ]}
      >
        <DatePicker.RangePicker {...picker(t('phases.review'))} />
      </Form.Item>
      <Form.Item
        name="results"
        label={t('phases.results')}
        dependencies={['review']}
        rules={[
          required,
          ({ getFieldValue }) => ({
            validator: (_rule, value: Dayjs | undefined) => {
              const before = getFieldValue('review') as Range | undefined;
              return value && before && value.isBefore(before[1])
                ? Promise.reject(new Error(t('form.order.results')))
                : Promise.resolve();
            },
          }),
        ]}
      >
        <DatePicker showTime={{ format: 'HH:mm' }} format={DATE_FORMAT} placeholder={t('form.resultsAt')} />
      </Form.Item>
    </div>
  );
}

/** The awards in order, from the top; each given to the next `count` ranks. */
export function AwardsField() {
  const { t } = useTranslation('event');
  return (
    <Form.List name="awards">
      {(fields, { add, remove, move }) => (
        <>
          {fields.map((field, index) => (
            <div key={field.key} className="event-form__row">
              <Form.Item
                name={[field.name, 'name']}
                label={t('form.awardName', { n: index + 1 })}
                rules={[{ required: true, whitespace: true, message: t('form.awardNameRequired') }]}
              >
                <Input maxLength={EVENT_LIMITS.awardName} />
              </Form.Item>
              <Form.Item name={[field.name, 'count']} label={t('form.awardCount', { n: index + 1 })}>
                <InputNumber min={0} max={1000} precision={0} />
              </Form.Item>
              <Button
                kind="icon"
                icon={<ArrowUpOutlined />}
                aria-label={t('form.awardUp', { n: index + 1 })}
                disabled={index === 0}
                onClick={() => move(index, index - 1)}
              />
              <Button
                kind="icon"
                icon={<ArrowDownOutlined />}
                aria-label={t('form.awardDown', { n: index + 1 })}
                disabled={index === fields.length - 1}
                onClick={() => move(index, index + 1)}
              />
              <Button
                kind="icon"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('form.awardRemove', { n: index + 1 })}
                onClick={() => remove(field.name)}
              />
            </div>
          ))}
          {fields.length < EVENT_LIMITS.awards && (
            <Button icon={<PlusOutlined />} onClick={() => add({ name: '', count: 1 })}>
              {t('form.addAward')}
            </Button>
          )}
        </>
      )}
    </Form.List>
  );
}
