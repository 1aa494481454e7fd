import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { EVENT_LIMITS } from '@aiedu/contracts';
import { Form, Input, InputNumber, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';

/** A later round as the settings form holds it. */
export interface RoundValues {
  name: string;
  advance: number;
  groupCount: number;
  judgesPerGroup: number;
  worksPerGroup: number;
}

const NEW_ROUND: RoundValues = { name: '', advance: 3, groupCount: 1, judgesPerGroup: 3, worksPerGroup: 0 };

/** A round's groups: how many, how many judges each, how many works each at most. */
function GroupFields({ prefix }: { prefix: (string | number)[] }) {
  const { t } = useTranslation('eventReview');
  return (
    <>
      <Form.Item name={[...prefix, 'groupCount']} label={t('settings.groupCount')} rules={[{ required: true }]}>
        <InputNumber min={1} max={100} precision={0} />
      </Form.Item>
      <Form.Item name={[...prefix, 'judgesPerGroup']} label={t('settings.judgesPerGroup')} rules={[{ required: true }]}>
        <InputNumber min={1} max={20} precision={0} />
      </Form.Item>
      <Form.Item
        name={[...prefix, 'worksPerGroup']}
        label={t('settings.worksPerGroup')}
        extra={t('settings.worksPerGroupHint')}
      >
        <InputNumber min={0} max={10_000} precision={0} />
      </Form.Item>
    </>
  );
}

/** The first round: its optional name and the settings' own groups. */
export function FirstRoundFields() {
  const { t } = useTranslation('eventReview');
  return (
    <fieldset className="review-criteria">
      <legend>{t('rounds.round', { n: 1 })}</legend>
      <Space wrap align="start">
        <Form.Item name="roundName" label={t('rounds.name')} extra={t('rounds.nameHint')}>
          <Input maxLength={EVENT_LIMITS.roundName} placeholder={t('rounds.round', { n: 1 })} />
        </Form.Item>
        <GroupFields prefix={[]} />
      </Space>
    </fieldset>
  );
}

/**
 * The rounds after the first (up to the limit), each with its name, how many works of each track go on to it from
 * the round before, and its own groups.
 */
export function LaterRoundsFields() {
  const { t } = useTranslation('eventReview');
  return (
    <Form.List name="rounds">
      {(fields, { add, remove }) => (
        <fieldset className="review-criteria">
          <legend>{t('rounds.later')}</legend>
          <p className="review-muted">{t('rounds.help')}</p>
          {fields.map((field, i) => (
            <fieldset key={field.key} className="review-round">
              <legend>{t('rounds.round', { n: i + 2 })}</legend>
              <Space wrap align="start">
                <Form.Item name={[field.name, 'name']} label={t('rounds.name')}>
                  <Input maxLength={EVENT_LIMITS.roundName} placeholder={t('rounds.round', { n: i + 2 })} />
                </Form.Item>
                <Form.Item
                  name={[field.name, 'advance']}
                  label={t('rounds.advance')}
                  extra={t('rounds.advanceHint')}
                  rules={[{ required: true, message: t('rounds.advanceRequired') }]}
                >
                  <InputNumber min={1} max={10_000} precision={0} />
                </Form.Item>
                <GroupFields prefix={[field.name]} />
              </Space>
              <Button
                kind="ghost"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('rounds.removeOne', { n: i + 2 })}
                onClick={() => remove(field.name)}
              >
                {t('rounds.remove')}
              </Button>
            </fieldset>
          ))}
          <Space wrap>
            <Button
              icon={<PlusOutlined />}
              disabled={fields.length >= EVENT_LIMITS.laterRounds}
              onClick={() => add({ ...NEW_ROUND })}
            >
              {t('rounds.add')}
            </Button>
            {fields.length >= EVENT_LIMITS.laterRounds && (
              <span className="review-muted">{t('rounds.max', { max: EVENT_LIMITS.laterRounds })}</span>
            )}
          </Space>
        </fieldset>
      )}
    </Form.List>
  );
}
