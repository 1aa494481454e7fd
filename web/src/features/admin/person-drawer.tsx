import { ZCreateStudentRequest, ZCreateTeacherRequest, type TStudent, type TTeacher } from '@aiedu/contracts';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { schemaRule } from '../../ui/form-rules';
import { encodePassword } from '../../ui/password-encoding';
import { AccountNameFields, SchoolField, AlsoTeacherField, InitialPasswordField } from './account-fields';
import { FormDrawer } from './form-drawer';
import { ADMIN_API, useAdminMutation, useClassOptions, useSchoolOptions } from './admin-api';

export type PersonKind = 'teacher' | 'student';

interface Values {
  schoolId?: string;
  classId?: string;
  username?: string;
  realName: string;
  phone?: string;
  remark?: string;
  schoolNumber?: string;
  password?: string;
  alsoTeacher?: boolean;
}

const FIELDS = { teacher: ZCreateTeacherRequest.shape, student: ZCreateStudentRequest.shape };

/** Creates or edits a teacher or a student in a drawer, so the list stays in view (UX.md "Administration"). */
export function PersonDrawer({
  kind,
  person,
  onClose,
}: {
  kind: PersonKind;
  person: TTeacher | TStudent | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<Values>();
  const schools = useSchoolOptions();
  const classes = useClassOptions();
  const path = kind === 'teacher' ? ADMIN_API.teachers : ADMIN_API.students;
  // A school administrator who also teaches is listed with the teachers; here the school can end the teaching.
  const teachingAdmin = kind === 'teacher' && (person as TTeacher | null)?.alsoTeacher === true;
  const save = useAdminMutation(
    (values: Values) => {
      if (person) {
        const { username: _u, password: _p, schoolId: _s, alsoTeacher, ...changes } = values;
        return api.put(`${path}/${person.id}`, {
          ...changes,
          ...(kind === 'teacher' ? { phone: values.phone || null } : { schoolNumber: values.schoolNumber || null }),
          ...(teachingAdmin ? { alsoTeacher } : {}),
        });
      }
      return api.post(path, {
        ...values,
        phone: values.phone || undefined,
        schoolNumber: values.schoolNumber || undefined,
        password: encodePassword(values.password ?? ''),
      });
    },
    [path, ADMIN_API.users],
    onClose,
  );
  const shape = FIELDS[kind];
  const creating = person === null;

  return (
    <FormDrawer
      title={t(creating ? (kind === 'teacher' ? 'people.newTeacher' : 'people.newStudent') : 'people.editTitle')}
      width={480}
      saving={save.isPending}
      form={form}
      initialValues={
        person
          ? { ...person, phone: (person as TTeacher).phone ?? undefined }
          : { schoolId: schools.data?.length === 1 ? schools.data[0]?.id : undefined }
      }
      onFinish={(values) => save.mutate(values)}
      onClose={onClose}
    >
      {kind === 'teacher' && creating && <SchoolField label={t('people.school')} />}
      {kind === 'student' && (
        <Form.Item name="classId" label={t('people.class')} rules={[{ required: true, message: t('form.required') }]}>
          <Select options={(classes.data ?? []).map((c) => ({ value: c.id, label: c.className }))} />
        </Form.Item>
      )}
      <AccountNameFields creating={creating} shape={shape} />
      {kind === 'teacher' ? (
        <>
          <Form.Item
            name="phone"
            label={t('people.phone')}
            rules={[schemaRule(ZCreateTeacherRequest.shape.phone, t('form.phone'))]}
          >
            <Input inputMode="numeric" maxLength={11} />
          </Form.Item>
          <Form.Item name="remark" label={t('people.remark')} rules={[{ max: 100, message: t('form.remark') }]}>
            <Input.TextArea maxLength={100} showCount rows={3} />
          </Form.Item>
          {teachingAdmin && <AlsoTeacherField hint={t('people.alsoTeacherOff')} />}
        </>
      ) : (
        <Form.Item
          name="schoolNumber"
          label={t('people.schoolNumber')}
          rules={[{ max: 30, message: t('form.schoolNumber') }]}
        >
          <Input />
        </Form.Item>
      )}
      {creating && <InitialPasswordField />}
    </FormDrawer>
  );
}
