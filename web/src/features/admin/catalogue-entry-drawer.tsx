import { CATALOGUE_LIMITS, CATEGORY_KINDS, type TCatalogueEntry } from '@aiedu/contracts';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { useAdminMutation } from './admin-api';
import { FormDrawer } from './form-drawer';

export type EntryKind = 'category' | 'difficulty' | 'tag';

export const NAME_LIMITS: Record<EntryKind, number> = {
  category: CATALOGUE_LIMITS.categoryName,
  difficulty: CATALOGUE_LIMITS.difficultyName,
  tag: CATALOGUE_LIMITS.tagName,
};

interface Values {
  name: string;
  kind?: (typeof CATEGORY_KINDS)[number];
}

/**
 * Creates or renames a direction, stage, difficulty or tag. A category in use keeps its kind (the server refuses
 * the move too); a renamed tag is renamed in the courses that carry it, and the drawer says so.
 */
export function CatalogueEntryDrawer({
  kind,
  path,
  entry,
  onClose,
}: {
  kind: EntryKind;
  path: string;
  entry: TCatalogueEntry | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('catalogue');
  const [form] = Form.useForm<Values>();
  const save = useAdminMutation(
    (values: Values) => (entry ? api.put(`${path}/${entry.id}`, values) : api.post(path, values)),
    [path],
    onClose,
  );
  const max = NAME_LIMITS[kind];
  return (
    <FormDrawer
      title={t(entry ? `entries.edit.${kind}` : `entries.new.${kind}`)}
      saving={save.isPending}
      form={form}
      initialValues={entry ? { name: entry.name, kind: entry.kind } : { kind: 'direction' }}
      onFinish={(values) => save.mutate(values)}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label={t('entries.name')}
        extra={kind === 'tag' && entry && entry.courses > 0 ? t('entries.tagRenameHint') : undefined}
        rules={[{ required: true, whitespace: true, max, message: t('entries.nameRule', { max }) }]}
      >
        <Input maxLength={max} showCount />
      </Form.Item>
      {kind === 'category' && (
        <Form.Item
          name="kind"
          label={t('entries.kind')}
          extra={
            entry?.kind && entry.courses > 0
              ? t('entries.kindInUse', { kind: t(`entries.kinds.${entry.kind}`) })
              : undefined
          }
        >
          <Select
            disabled={Boolean(entry && entry.courses > 0)}
            options={CATEGORY_KINDS.map((k) => ({ value: k, label: t(`entries.kinds.${k}`) }))}
          />
        </Form.Item>
      )}
    </FormDrawer>
  );
}
