import { DATASET_LIMITS, ZDatasetCategories, ZDatasetTags, type DatasetAccess } from '@aiedu/contracts';
import { Form, Input, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { schemaRule } from '../../ui/form-rules';
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

/** What a saved dataset's access was: it decides which changes the rules still allow. */
export interface SavedAccess {
  access: DatasetAccess;
  groupId: string | null;
}

/**
 * Who may see the dataset. A group is one of the caller's groups. A public dataset stays public (3206), and one
 * shared with a group cannot be made private again (3203, spec 4): the form offers only what the rules allow, and
 * says why, before the server has to.
 */
function AccessField({ saved }: { saved: SavedAccess | undefined }) {
  const { t } = useTranslation('dataset');
  const access = Form.useWatch<DatasetAccess>('access');
  const groups = useMyGroups();
  const options = (groups.data?.list ?? []).map((g) => ({ value: g.id, label: g.name }));
  const publicFinal = saved?.access === 'public';
  const sharedWithGroup = Boolean(saved?.groupId);
  const allowed = (a: DatasetAccess) => !(publicFinal && a !== 'public') && !(sharedWithGroup && a === 'private');
  const why = publicFinal ? 'datasetPublicFinal' : sharedWithGroup ? 'datasetGroupNotPrivate' : null;
  return (
    <>
      <Form.Item
        name="access"
        label={t('form.access')}
        extra={
          <>
            {t('form.accessHint')}
            {why && <div className="dataset-form__rule">{t(why, { ns: 'errors' })}</div>}
          </>
        }
      >
        <Radio.Group
          options={(['public', 'private', 'group'] as const).map((a) => ({
            value: a,
            label: t(`access.${a}`),
            disabled: !allowed(a),
          }))}
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
export function DatasetFormFields({ saved }: { saved: SavedAccess | undefined }) {
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
        validateFirst
        rules={[
          schemaRule(ZDatasetTags.element.array(), t('form.tagTooLong', { max: DATASET_LIMITS.tag })),
          schemaRule(ZDatasetTags, t('tagExists', { ns: 'errors' })),
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
      <AccessField saved={saved} />
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
        validateFirst
        rules={[
          schemaRule(
            ZDatasetCategories.element.array(),
            t('form.tagTooLong', { max: DATASET_LIMITS.annotationCategory }),
          ),
          schemaRule(ZDatasetCategories, t('form.categoryExists')),
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
