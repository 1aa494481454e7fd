import { DATASET_LIMITS, type DatasetAccess } from '@aiedu/contracts';
import { Form, Input, Radio, Select, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFilters } from '../course/course-api';
import { useMyGroups } from './dataset-api';

export interface DatasetFormValues {
  name: string;
  description: string;
  explanation: string;
  tags: string[];
  access: DatasetAccess;
  groupId: string | null;
  courseTag: string | null;
  annotationCategories: string[];
}

/** A list of names typed as tags: each at most `max` characters, none twice (case aside). */
function namesRule(max: number, tooLong: string, twice: string): FormRule {
  return {
    validator: (_rule, names: string[] = []) => {
      if (names.some((n) => n.trim().length > max)) return Promise.reject(new Error(tooLong));
      const distinct = new Set(names.map((n) => n.trim().toLowerCase()));
      return distinct.size === names.length ? Promise.resolve() : Promise.reject(new Error(twice));
    },
  };
}

/**
 * Who may see the dataset. A group is one of the caller's groups. A dataset that is shared with a group cannot be
 * made private again (spec 4); the form says so before the server has to.
 */
function AccessField({ sharedWithGroup }: { sharedWithGroup: boolean }) {
  const { t } = useTranslation('dataset');
  const access = Form.useWatch<DatasetAccess>('access');
  const groups = useMyGroups();
  const options = (groups.data?.list ?? []).map((g) => ({ value: g.id, label: g.name }));
  return (
    <>
      <Form.Item
        name="access"
        label={t('form.access')}
        extra={t('form.accessHint')}
        rules={[
          {
            validator: (_rule, value: DatasetAccess) =>
              sharedWithGroup && value === 'private'
                ? Promise.reject(new Error(t('datasetGroupNotPrivate', { ns: 'errors' })))
                : Promise.resolve(),
          },
        ]}
      >
        <Radio.Group
          options={(['public', 'private', 'group'] as const).map((a) => ({ value: a, label: t(`access.${a}`) }))}
        />
      </Form.Item>
      {access === 'group' && (
        <Form.Item
          name="groupId"
          label={t('form.group')}
          extra={groups.data && !options.length ? t('form.noGroups') : undefined}
          rules={[{ required: true, message: t('form.groupRequired') }]}
        >
          <Select options={options} loading={groups.isLoading} aria-label={t('form.group')} />
        </Form.Item>
      )}
    </>
  );
}

/** The fields of a dataset (spec 3): the same on the new and the edit form. */
export function DatasetFormFields({ sharedWithGroup }: { sharedWithGroup: boolean }) {
  const { t } = useTranslation('dataset');
  const filters = useFilters();
  return (
    <>
      <Form.Item
        name="name"
        label={t('form.name')}
        rules={[
          { required: true, whitespace: true, message: t('form.nameRequired') },
          { max: DATASET_LIMITS.name, message: t('form.tooLong', { max: DATASET_LIMITS.name }) },
        ]}
      >
        <Input maxLength={DATASET_LIMITS.name} showCount />
      </Form.Item>
      <Form.Item
        name="description"
        label={t('form.description')}
        rules={[{ max: DATASET_LIMITS.description, message: t('form.tooLong', { max: DATASET_LIMITS.description }) }]}
      >
        <Input.TextArea maxLength={DATASET_LIMITS.description} showCount rows={3} />
      </Form.Item>
      <Form.Item
        name="explanation"
        label={t('form.explanation')}
        extra={t('form.explanationHint')}
        rules={[{ max: DATASET_LIMITS.explanation, message: t('form.tooLong', { max: DATASET_LIMITS.explanation }) }]}
      >
        <Input.TextArea maxLength={DATASET_LIMITS.explanation} showCount rows={5} />
      </Form.Item>
      <Form.Item
        name="tags"
        label={t('form.tags')}
        extra={t('form.tagsHint', { count: DATASET_LIMITS.tags, max: DATASET_LIMITS.tag })}
        rules={[
          namesRule(
            DATASET_LIMITS.tag,
            t('form.tagTooLong', { max: DATASET_LIMITS.tag }),
            t('tagExists', { ns: 'errors' }),
          ),
        ]}
      >
        <Select
          mode="tags"
          open={false}
          tokenSeparators={[',']}
          maxCount={DATASET_LIMITS.tags}
          aria-label={t('form.tags')}
        />
      </Form.Item>
      <AccessField sharedWithGroup={sharedWithGroup} />
      <Form.Item name="courseTag" label={t('form.courseTag')} extra={t('form.courseTagHint')}>
        <Select
          allowClear
          showSearch
          aria-label={t('form.courseTag')}
          loading={filters.isLoading}
          options={(filters.data?.tags ?? []).map((tag) => ({ value: tag.name, label: tag.name }))}
        />
      </Form.Item>
      <Form.Item
        name="annotationCategories"
        label={t('form.categories')}
        extra={t('form.categoriesHint', { count: DATASET_LIMITS.annotationCategories })}
        rules={[
          namesRule(
            DATASET_LIMITS.annotationCategory,
            t('form.tagTooLong', { max: DATASET_LIMITS.annotationCategory }),
            t('form.categoryExists'),
          ),
        ]}
      >
        <Select
          mode="tags"
          open={false}
          tokenSeparators={[',']}
          maxCount={DATASET_LIMITS.annotationCategories}
          aria-label={t('form.categories')}
        />
      </Form.Item>
    </>
  );
}
