import { LIMITS, type TScheduleDetail } from '@aiedu/contracts';
import { DatePicker, Form, Input, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readSession } from '../../app/session';
import { dayjs } from '../../ui/dates';
import { FormDrawer } from '../admin/form-drawer';
import { CoursePicker, type PickedCourse } from './course-picker';
import { scheduleCalls, useScheduleMutation, useScheduleOptions, useStudentOptions } from './schedule-api';

interface Values {
  name: string;
  startAt: Dayjs;
  courses: PickedCourse[];
  teacherIds: string[];
  classIds: string[];
  studentIds: string[];
}

/**
 * A new schedule, or a change of one (not finished): name, start time, courses with their versions, other teachers
 * and the classes of the teacher's school, and single students found by name.
 */
export function ScheduleFormDrawer({
  schedule,
  onClose,
  onSaved,
}: {
  schedule?: TScheduleDetail;
  onClose: () => void;
  onSaved: (saved: TScheduleDetail) => void;
}) {
  const { t } = useTranslation('schedule');
  const [form] = Form.useForm<Values>();
  const me = readSession().userId;
  const options = useScheduleOptions(true);
  const [keyword, setKeyword] = useState('');
  const students = useStudentOptions(keyword, true);
  const save = useScheduleMutation((values: Values) => {
    const body = {
      name: values.name,
      startAt: values.startAt.toISOString(),
      courses: values.courses.map(({ courseId, versionId }) => ({ courseId, ...(versionId ? { versionId } : {}) })),
      teacherIds: values.teacherIds ?? [],
      classIds: values.classIds,
      studentIds: values.studentIds ?? [],
    };
    return schedule ? scheduleCalls.update(schedule.id, body) : scheduleCalls.create(body);
  }, onSaved);
  const picked = new Map((schedule?.students ?? []).map((s) => [s.id, s.name]));
  for (const s of students.data ?? []) picked.set(s.id, s.className ? `${s.name} (${s.className})` : s.name);
  const required = [{ required: true, message: t('form.required') }];

  return (
    <FormDrawer<Values>
      title={schedule ? t('form.editTitle') : t('form.createTitle')}
      width={560}
      saving={save.isPending}
      form={form}
      onClose={onClose}
      onFinish={(values) => save.mutate(values)}
      initialValues={
        schedule
          ? {
              name: schedule.name,
              startAt: dayjs(schedule.startAt),
              courses: schedule.courses.map((c) => ({
                courseId: c.courseId,
                versionId: c.versionId,
                name: c.name,
                versionNumber: c.versionNumber,
              })),
              teacherIds: schedule.teachers.map((x) => x.id).filter((id) => id !== me),
              classIds: schedule.classes.map((c) => c.id),
              studentIds: schedule.students.map((s) => s.id),
            }
          : { startAt: dayjs().add(1, 'day').startOf('hour'), courses: [], teacherIds: [], studentIds: [] }
      }
    >
      <Form.Item name="name" label={t('form.name')} rules={[...required, { max: LIMITS.courseTitle }]}>
        <Input maxLength={LIMITS.courseTitle} showCount />
      </Form.Item>
      <Form.Item name="startAt" label={t('form.startAt')} rules={required}>
        <DatePicker showTime format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="courses"
        label={t('form.courses')}
        extra={t('form.coursesHelp')}
        rules={[
          {
            validator: async (_, v: PickedCourse[] | undefined) => {
              if (!v?.length) throw new Error(t('form.required'));
            },
          },
        ]}
      >
        <CoursePicker />
      </Form.Item>
      <Form.Item name="classIds" label={t('form.classes')} rules={required}>
        <Select
          mode="multiple"
          optionFilterProp="label"
          loading={options.isPending}
          options={(options.data?.classes ?? []).map((c) => ({
            value: c.id,
            label: t('form.classLabel', { name: c.name, grade: c.grade, count: c.stuCount }),
          }))}
        />
      </Form.Item>
      <Form.Item name="teacherIds" label={t('form.teachers')} extra={t('form.teachersHelp')}>
        <Select
          mode="multiple"
          optionFilterProp="label"
          options={(options.data?.teachers ?? [])
            .filter((x) => x.id !== me)
            .map((x) => ({ value: x.id, label: x.name }))}
        />
      </Form.Item>
      <Form.Item name="studentIds" label={t('form.students')} extra={t('form.studentsHelp')}>
        <Select
          mode="multiple"
          showSearch
          filterOption={false}
          onSearch={setKeyword}
          loading={students.isFetching}
          options={[...picked].map(([value, label]) => ({ value, label }))}
        />
      </Form.Item>
    </FormDrawer>
  );
}
