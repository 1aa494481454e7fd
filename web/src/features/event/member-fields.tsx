import { DeleteOutlined } from '@ant-design/icons';
import { DOCUMENT_TYPES, EVENT_LIMITS, type TeamRole, type TTeamMember } from '@aiedu/contracts';
import { Card, DatePicker, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { dayjs } from '../../ui/dates';
import { declarationCalls } from './declaration-api';
import { ImageUpload } from './image-upload';

type Dayjs = ReturnType<typeof dayjs>;

/** A team member as the form holds it: the birthday as a date, the photo's address for its preview. */
export type MemberValues = Omit<TTeamMember, 'birthday'> & { birthday: Dayjs | null; photoUrl: string | null };

/** The member's fields typed in as text. */
type TextField =
  | 'name'
  | 'ethnicity'
  | 'documentNumber'
  | 'school'
  | 'grade'
  | 'studentNumber'
  | 'phone'
  | 'email'
  | 'qq'
  | 'wechat'
  | 'address'
  | 'district';

export function memberValues(member: TTeamMember & { photoUrl?: string | null }): MemberValues {
  return { ...member, birthday: member.birthday ? dayjs(member.birthday) : null, photoUrl: member.photoUrl ?? null };
}

/** What the server is sent for one member: every field, the birthday as a date. */
export function memberPayload(member: MemberValues): TTeamMember {
  const { photoUrl: _preview, birthday, ...rest } = member;
  const text = (value: string | undefined) => (value ?? '').trim();
  return {
    role: rest.role,
    userId: rest.userId ?? null,
    name: text(rest.name),
    photoKey: rest.photoKey ?? null,
    birthday: birthday ? birthday.format('YYYY-MM-DD') : null,
    ethnicity: text(rest.ethnicity),
    documentType: rest.documentType ?? null,
    documentNumber: text(rest.documentNumber),
    school: text(rest.school),
    grade: text(rest.grade),
    studentNumber: text(rest.studentNumber),
    phone: text(rest.phone),
    email: text(rest.email),
    qq: text(rest.qq),
    wechat: text(rest.wechat),
    address: text(rest.address),
    district: text(rest.district),
  };
}

/** The declaration photo: a JPG or PNG of at most 2 MB. */
function PhotoField({ list, name, label, readOnly }: { list: string; name: number; label: string; readOnly: boolean }) {
  const { t } = useTranslation('event');
  const form = Form.useFormInstance();
  const url = Form.useWatch<string | null>([list, name, 'photoUrl']);
  return (
    <div className="event-section">
      {url && <img src={url} alt={t('declaration.photoOf', { name: label })} className="event-member__photo" />}
      {!readOnly && (
        <ImageUpload
          hasImage={Boolean(url)}
          maxBytes={EVENT_LIMITS.photoBytes}
          upload={declarationCalls.uploadPhoto}
          onUploaded={(image) => {
            form.setFieldValue([list, name, 'photoKey'], image.key);
            form.setFieldValue([list, name, 'photoUrl'], image.url);
          }}
          texts={{
            pick: t('declaration.photoPick'),
            change: t('declaration.photoChange'),
            hint: t('declaration.photoHint'),
            wrongType: t('declaration.photoType'),
            tooLarge: t('declaration.photoSize'),
            failed: t('common.failed'),
          }}
        />
      )}
    </div>
  );
}

/** One applicant or mentor: every field of the spec's applicant. */
export function MemberCard({
  list,
  name,
  index,
  role,
  me,
  readOnly,
  onRemove,
}: {
  list: string;
  name: number;
  index: number;
  role: TeamRole;
  me: boolean;
  readOnly: boolean;
  onRemove?: () => void;
}) {
  const { t } = useTranslation('event');
  const title = t(`declaration.${role}N`, { n: index + 1 }) + (me ? ` · ${t('declaration.me')}` : '');
  const item = (field: TextField, max: number, rules: object[] = []) => (
    <Form.Item name={[name, field]} label={t(`member.${field}`)} rules={rules}>
      <Input maxLength={max} />
    </Form.Item>
  );
  return (
    <Card
      size="small"
      className="event-form__item-card"
      title={title}
      extra={
        onRemove && (
          <Button danger kind="ghost" size="small" icon={<DeleteOutlined />} onClick={onRemove}>
            {t('declaration.remove', { who: title })}
          </Button>
        )
      }
    >
      <Form.Item name={[name, 'role']} hidden>
        <Input />
      </Form.Item>
      <Form.Item name={[name, 'userId']} hidden>
        <Input />
      </Form.Item>
      <Form.Item name={[name, 'photoKey']} hidden>
        <Input />
      </Form.Item>
      <Form.Item name={[name, 'photoUrl']} hidden>
        <Input />
      </Form.Item>
      <PhotoField list={list} name={name} label={title} readOnly={readOnly} />
      <div className="event-member-grid">
        {item('name', 50, [{ required: true, whitespace: true, message: t('member.nameRequired') }])}
        <Form.Item name={[name, 'birthday']} label={t('member.birthday')}>
          <DatePicker placeholder={t('member.birthday')} />
        </Form.Item>
        {item('ethnicity', 30)}
        <Form.Item name={[name, 'documentType']} label={t('member.documentType')}>
          <Select
            allowClear
            aria-label={t('member.documentType')}
            options={DOCUMENT_TYPES.map((d) => ({ value: d, label: t(`documentTypes.${d}`) }))}
          />
        </Form.Item>
        {item('documentNumber', 30)}
        {item('school', 100)}
        {item('grade', 30)}
        {item('studentNumber', 30)}
        {item('phone', 16, [{ pattern: /^\+?[0-9]{6,15}$/, message: t('member.phoneInvalid') }])}
        {item('email', 100, [{ type: 'email', message: t('member.emailInvalid') }])}
        {item('qq', 12, [{ pattern: /^[0-9]{5,12}$/, message: t('member.qqInvalid') }])}
        {item('wechat', 40)}
        {item('address', 200)}
        {item('district', 100)}
      </div>
    </Card>
  );
}
