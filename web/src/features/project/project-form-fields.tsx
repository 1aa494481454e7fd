import { CONTAINER_TYPES, PROJECT_ACCESS, PROJECT_LIMITS } from '@aiedu/contracts';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';

/** The fields of a project (spec 3), shared by the create dialog and the settings drawer. */
export function ProjectFormFields({ publicFinal }: { publicFinal: boolean }) {
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
          options={PROJECT_ACCESS.map((a) => ({
            value: a,
            label: t(`access.${a}`),
            disabled: a === 'private' && publicFinal,
          }))}
        />
      </Form.Item>
      <Form.Item name="runtimeType" label={t('form.runtimeType')}>
        <Select options={CONTAINER_TYPES.map((r) => ({ value: r, label: t(`runtime.${r}`) }))} />
      </Form.Item>
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
