import { DeleteOutlined } from '@ant-design/icons';
import type { TTeachableCourse } from '@aiedu/contracts';
import { Button, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCourseOptions } from './schedule-api';

export interface PickedCourse {
  courseId: string;
  versionId?: string;
  /** Shown for a course already in the schedule, whose versions the search may not have loaded. */
  name?: string;
  versionNumber?: number | null;
}

/**
 * The courses of a schedule (a form field): found by name among the published courses the teacher may teach, each
 * with the published version the class learns (the current one unless another is chosen). A course already in the
 * schedule keeps its version here; it moves from the schedule's page.
 */
export function CoursePicker({
  value = [],
  onChange,
  id,
}: {
  value?: PickedCourse[];
  onChange?: (value: PickedCourse[]) => void;
  id?: string;
}) {
  const { t } = useTranslation('schedule');
  const [keyword, setKeyword] = useState('');
  const options = useCourseOptions(keyword, true);
  const [known, setKnown] = useState<Record<string, TTeachableCourse>>({});
  const found = options.data ?? [];
  const add = (courseId: string) => {
    const course = found.find((c) => c.id === courseId);
    if (!course || value.some((v) => v.courseId === courseId)) return;
    setKnown((k) => ({ ...k, [course.id]: course }));
    onChange?.([...value, { courseId, versionId: course.currentVersionId }]);
  };
  const setVersion = (courseId: string, versionId: string) =>
    onChange?.(value.map((v) => (v.courseId === courseId ? { ...v, versionId } : v)));
  const remove = (courseId: string) => onChange?.(value.filter((v) => v.courseId !== courseId));

  return (
    <div className="schedule-courses-picker">
      <Select
        id={id}
        showSearch
        filterOption={false}
        onSearch={setKeyword}
        value={null}
        placeholder={t('form.coursesSearch')}
        aria-label={t('form.coursesSearch')}
        loading={options.isFetching}
        onChange={(courseId: string) => add(courseId)}
        options={found
          .filter((c) => !value.some((v) => v.courseId === c.id))
          .map((c) => ({ value: c.id, label: `${c.name} · ${c.ownerName}` }))}
        style={{ width: '100%' }}
      />
      <ul className="schedule-courses-picker__list">
        {value.map((picked) => {
          const course = known[picked.courseId];
          const name = course?.name ?? picked.name ?? '';
          return (
            <li key={picked.courseId}>
              <span className="schedule-courses-picker__name">{name}</span>
              {course ? (
                <Select
                  aria-label={t('form.versionOf', { name })}
                  value={picked.versionId}
                  onChange={(versionId: string) => setVersion(picked.courseId, versionId)}
                  options={course.versions.map((v) => ({
                    value: v.id,
                    label:
                      v.id === course.currentVersionId
                        ? t('form.currentVersion', { version: v.number })
                        : t('version', { version: v.number }),
                  }))}
                  style={{ width: 180 }}
                />
              ) : (
                <span>{t('version', { version: picked.versionNumber ?? '' })}</span>
              )}
              <Button
                type="text"
                icon={<DeleteOutlined />}
                aria-label={t('form.removeCourse', { name })}
                onClick={() => remove(picked.courseId)}
              />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
