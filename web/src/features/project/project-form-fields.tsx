import { CONTAINER_TYPES, PROJECT_LIMITS, RUNTIME_ENVIRONMENTS, SETTABLE_PROJECT_ACCESS } from '@aiedu/contracts';
import { Form, Input, Radio, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../ui/sizes';
import { useComputeBalances } from './project-api';

/**
 * The container types the caller's customer offers, each with this week's minutes left. A project's current type
 * that is no longer offered stays shown, disabled. With `pickOffered` (a new project) the field moves to the first
 * type offered when its value is not.
 */
function RuntimeTypeField({ pickOffered }: { pickOffered: boolean }) {
  const { t } = useTranslation('project');
  const form = Form.useFormInstance();
  const current = Form.useWatch('runtimeType', form) as string | undefined;
  const balances = useComputeBalances().data;
  const first = balances?.[0]?.runtimeType;
  const offered = Boolean(balances?.some((b) => b.runtimeType === current));
  useEffect(() => {
    if (pickOffered && first && !offered) form.setFieldValue('runtimeType', first);
  }, [pickOffered, first, offered, form]);
  const options = CONTAINER_TYPES.flatMap((type) => {
    const balance = balances?.find((b) => b.runtimeType === type);
    const name = t(`runtime.${type}`);
    if (balance)
      return [
        {
          value: type,
          label: t('form.runtimeOption', {
            type: name,
            cpu: balance.cpu,
            memory: formatBytes(balance.memoryMb * 2 ** 20),
            minutes: balance.remainingMinutes,
          }),
        },
      ];
    return type === current
      ? [{ value: type, label: t('form.runtimeNotOffered', { type: name }), disabled: true }]
      : [];
  });
  return (
    <Form.Item name="runtimeType" label={t('form.runtimeType')} extra={t('form.runtimeHint')}>
      <Select options={options} loading={!balances} />
    </Form.Item>
  );
}

/**
 * The runtime environment (spec 3): plain Python, or the larger AI one. A change to an existing project applies the
 * next time Python starts.
 */
function EnvironmentField({ isNew }: { isNew: boolean }) {
  const { t } = useTranslation('project');
  return (
    <Form.Item
      name="environment"
      label={t('environment.label')}
      extra={isNew ? t('environment.hint') : `${t('environment.hint')} ${t('environment.nextStart')}`}
    >
      <Radio.Group
        vertical
        options={RUNTIME_ENVIRONMENTS.map((environment) => ({
          value: environment,
          label: t(`environment.option.${environment}`),
        }))}
      />
    </Form.Item>
  );
}

/** The fields of a project (spec 3), shared by the create dialog and the settings drawer. */
export function ProjectFormFields({ publicFinal, isNew = false }: { publicFinal: boolean; isNew?: boolean }) {
  const { t } = useTranslation('project');
  const text = (name: string, label: string, max = 50) => (
    <Form.Item name={name} label={label}>
      <Input maxLength={max} />
    </Form.Item>
  );
  return (
    <>
      <Form.Item
        name="name"
        label={t('form.name')}
        rules={[{ required: true, whitespace: true, message: t('form.nameRequired') }]}
      >
        <Input maxLength={PROJECT_LIMITS.name} />
      </Form.Item>
      <Form.Item name="description" label={t('form.description')}>
        <Input.TextArea maxLength={PROJECT_LIMITS.description} showCount rows={3} />
      </Form.Item>
      <Form.Item
        name="tags"
        label={t('form.tags')}
        extra={t('form.tagsHint')}
        rules={[
          { type: 'array', max: PROJECT_LIMITS.tags, message: t('form.tags') },
          {
            validator: (_, tags: string[] = []) =>
              new Set(tags.map((x) => x.toLowerCase())).size === tags.length
                ? Promise.resolve()
                : Promise.reject(new Error(t('form.tagExists'))),
          },
        ]}
      >
        <Select
          mode="tags"
          open={false}
          tokenSeparators={[',']}
          maxCount={PROJECT_LIMITS.tags}
          aria-label={t('form.tags')}
        />
      </Form.Item>
      <Form.Item name="access" label={t('form.access')} extra={t('form.publicFinal')}>
        <Select
          options={SETTABLE_PROJECT_ACCESS.map((a) => ({
            value: a,
            label: t(`access.${a}`),
            disabled: a === 'private' && publicFinal,
          }))}
        />
      </Form.Item>
      <RuntimeTypeField pickOffered={isNew} />
      <EnvironmentField isNew={isNew} />
      {text('type', t('form.type'))}
      {text('framework', t('form.framework'))}
      {text('direction', t('form.direction'))}
      {text('studySection', t('form.studySection'))}
      {text('tool', t('form.tool'))}
      {text('courseTag', t('form.courseTag'))}
      {text('labelFile', t('form.labelFile'), 200)}
    </>
  );
}
