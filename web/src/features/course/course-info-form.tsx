import type { COURSE_SCOPES } from '@aiedu/contracts';
import { COURSE_LEVELS, LIMITS, SETTABLE_COURSE_SCOPES, type TEditableCourse } from '@aiedu/contracts';
import { Button, Form, Input, Select, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFilters } from './course-api';

export interface CourseInfoValues {
  name: string;
  description: string;
  publicScope: (typeof COURSE_SCOPES)[number];
  /** Required (spec 5: a course's category); null only until chosen. */
  directionId: string | null;
  stageId: string | null;
  difficultyId: string | null;
  levels: string[];
  tags: string[];
}

/** What a version holds: on a published course they change only in a revision (learners keep theirs). */
const VERSIONED: readonly (keyof CourseInfoValues)[] = ['name', 'description', 'tags'];

/**
 * Name, description, scope, category, difficulty, levels, tags and cover; the same form creates and edits. On a
 * published course without a revision the version's own fields (name, description, tags, cover) are read-only.
 */
export function CourseInfoForm({
  course,
  onSave,
  onCover,
}: {
  course?: TEditableCourse;
  onSave: (values: CourseInfoValues) => Promise<unknown>;
  onCover?: (file: File) => Promise<unknown>;
}) {
  const { t } = useTranslation('course');
  const filters = useFilters();
  const items = (list: { id: string; name: string }[] | undefined) =>
    (list ?? []).map((i) => ({ value: i.id, label: i.name }));
  const initial: CourseInfoValues = {
    name: course?.name ?? '',
    description: course?.description ?? '',
    publicScope: course?.publicScope ?? 'customer',
    directionId: course?.directionId ?? null,
    stageId: course?.stageId ?? null,
    difficultyId: course?.difficultyId ?? null,
    levels: course?.levels ?? ['any'],
    tags: course?.tags ?? [],
  };
  const locked = course?.status === 'published';
  const [busy, setBusy] = useState(false);
  const save = async (values: CourseInfoValues) => {
    setBusy(true);
    try {
      const sent = locked
        ? (Object.fromEntries(
            Object.entries(values).filter(([key]) => !VERSIONED.includes(key as keyof CourseInfoValues)),
          ) as CourseInfoValues)
        : values;
      await onSave(sent);
      if (course) toast.success(t('editor.saved'));
    } catch {
      // The refusal was shown where every refusal is; the form keeps what was written.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form
      layout="vertical"
      initialValues={initial}
      onFinish={(values) => void save(values)}
      className="course-info-form"
      requiredMark={false}
    >
      {locked && <p className="course-info-form__locked">{t('editor.infoLocked')}</p>}
      <Form.Item
        name="name"
        label={t('editor.name')}
        rules={[{ required: true, max: LIMITS.courseTitle, whitespace: true }]}
      >
        <Input maxLength={LIMITS.courseTitle} showCount disabled={locked} />
      </Form.Item>
      <Form.Item name="description" label={t('editor.description')} rules={[{ max: LIMITS.description }]}>
        <Input.TextArea maxLength={LIMITS.description} showCount rows={3} disabled={locked} />
      </Form.Item>
      <div className="course-info-form__row">
        <Form.Item name="publicScope" label={t('editor.scope')}>
          <Select options={SETTABLE_COURSE_SCOPES.map((s) => ({ value: s, label: t(`editor.scopes.${s}`) }))} />
        </Form.Item>
        <Form.Item
          name="directionId"
          label={t('centre.direction')}
          rules={[{ required: true, message: t('editor.directionRequired') }]}
        >
          <Select options={items(filters.data?.directions)} />
        </Form.Item>
        <Form.Item
          name="stageId"
          label={t('centre.stage')}
          rules={[{ required: true, message: t('editor.stageRequired') }]}
        >
          <Select options={items(filters.data?.stages)} />
        </Form.Item>
        <Form.Item name="difficultyId" label={t('centre.difficulty')}>
          <Select allowClear options={items(filters.data?.difficulties)} />
        </Form.Item>
      </div>
      <Form.Item name="levels" label={t('centre.level')}>
        <Select mode="multiple" options={COURSE_LEVELS.map((l) => ({ value: l, label: t(`levels.${l}`) }))} />
      </Form.Item>
      <Form.Item
        name="tags"
        label={t('editor.tags')}
        extra={t('editor.tagsHint')}
        rules={[{ type: 'array', max: LIMITS.tags }]}
      >
        <Select
          mode="tags"
          disabled={locked}
          maxCount={LIMITS.tags}
          options={(filters.data?.tags ?? []).map((g) => ({ value: g.name }))}
        />
      </Form.Item>
      {course && onCover && (
        <Form.Item label={t('editor.cover')} extra={t('editor.coverHint')}>
          {course.thumbUrl && <img src={course.thumbUrl} alt="" className="course-info-form__thumb" />}
          <Upload
            accept=".jpg,.jpeg,.png,.gif"
            disabled={locked}
            showUploadList={false}
            beforeUpload={(file) => {
              void onCover(file);
              return false;
            }}
          >
            <Button disabled={locked}>{t('editor.cover')}</Button>
          </Upload>
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" size="large" loading={busy}>
        {course ? t('editor.save') : t('editor.create')}
      </Button>
    </Form>
  );
}
