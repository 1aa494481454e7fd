import { GENDERS, LIMITS, type TUpdateUserInfoRequest, type TUserInfo } from '@aiedu/contracts';
import { AutoComplete, DatePicker, Form, Input, Radio } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useUserInfo } from '../../app/user-info';
import { Button } from '../../ui/button';
import { dayjs } from '../../ui/dates';
import { FormError } from '../../ui/form-error';
import { RegionCascader } from '../../ui/region-cascader';
import { formErrorMessage } from '../sign/sign-api';
import { searchSchools, useUpdateUserInfo } from './profile-api';

interface Values {
  nickname: string;
  realName: string;
  schoolName: string;
  gender: TUserInfo['gender'];
  birthDay: Dayjs | null;
  identity: 'teacher' | 'student' | null;
  /** Province and city names; the server keeps them as text, so ones typed before the picker existed still show. */
  region: string[];
  signature: string;
}

function valuesOf(user: TUserInfo): Values {
  return {
    nickname: user.nickname,
    realName: user.realName,
    schoolName: user.schoolName,
    gender: user.gender,
    birthDay: user.birthDay ? dayjs(user.birthDay) : null,
    identity: user.identity,
    region: user.areas,
    signature: user.signature,
  };
}

function requestOf(values: Values): TUpdateUserInfoRequest {
  return {
    nickname: values.nickname,
    realName: values.realName,
    schoolName: values.schoolName,
    gender: values.gender,
    birthDay: values.birthDay ? values.birthDay.format('YYYY-MM-DD') : null,
    ...(values.identity ? { identity: values.identity } : {}),
    province: values.region[0] ?? '',
    city: values.region[1] ?? '',
    signature: values.signature,
  };
}

/** Schools whose name contains what was typed, as suggestions; any name may still be typed. */
function useSchoolOptions(text: string | undefined) {
  const part = text?.trim() ?? '';
  const [found, setFound] = useState<{ part: string; options: Array<{ value: string }> }>({ part: '', options: [] });
  useEffect(() => {
    if (part.length < 2) return undefined;
    let current = true;
    const timer = window.setTimeout(() => {
      searchSchools(part)
        .then((schools) => current && setFound({ part, options: schools.map((s) => ({ value: s.name })) }))
        .catch(() => undefined);
    }, 250);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [part]);
  return found.part === part ? found.options : [];
}

/** Basic information (spec 2, 3 and 5): nickname ≤ 10, real name and school ≤ 20, and the rest. */
export function BasicInfoForm() {
  const { t } = useTranslation('profile');
  const user = useUserInfo();
  const update = useUpdateUserInfo();
  const formName = `profile-basic${useId()}`;
  const [form] = Form.useForm<Values>();
  const schoolOptions = useSchoolOptions(Form.useWatch('schoolName', form));
  const [error, setError] = useState<string>();
  if (!user.data) return null;
  const max = (length: number) => ({ max: length, message: t('validation.max', { max: length }) });

  function submit(values: Values) {
    setError(undefined);
    update.mutate(requestOf(values), {
      onSuccess: () => toast.success(t('saved')),
      onError: (failure) => setError(formErrorMessage(failure)),
    });
  }

  return (
    <Form form={form} name={formName} layout="vertical" initialValues={valuesOf(user.data)} onFinish={submit}>
      <Form.Item label={t('basic.nickname')} name="nickname" rules={[max(LIMITS.nickname)]}>
        <Input maxLength={LIMITS.nickname} showCount />
      </Form.Item>
      <Form.Item label={t('basic.realName')} name="realName" rules={[max(LIMITS.realName)]}>
        <Input maxLength={LIMITS.realName} showCount autoComplete="name" />
      </Form.Item>
      <Form.Item label={t('basic.identity')} name="identity">
        <Radio.Group
          options={[
            { value: 'student', label: t('basic.student') },
            { value: 'teacher', label: t('basic.teacher') },
          ]}
        />
      </Form.Item>
      <Form.Item label={t('basic.school')} name="schoolName" rules={[max(LIMITS.schoolName)]}>
        <AutoComplete options={schoolOptions}>
          <Input maxLength={LIMITS.schoolName} showCount />
        </AutoComplete>
      </Form.Item>
      <Form.Item label={t('basic.gender')} name="gender">
        <Radio.Group options={GENDERS.map((value) => ({ value, label: t(`basic.genders.${value}`) }))} />
      </Form.Item>
      <Form.Item label={t('basic.birthDay')} name="birthDay">
        <DatePicker disabledDate={(day) => day.isAfter(dayjs())} />
      </Form.Item>
      <Form.Item label={t('basic.region')} name="region">
        <RegionCascader
          label={t('basic.region')}
          placeholder={t('basic.regionHint')}
          rootCode="CN"
          levels={2}
          valueKind="name"
        />
      </Form.Item>
      <Form.Item label={t('basic.signature')} name="signature" rules={[max(LIMITS.description)]}>
        <Input.TextArea maxLength={LIMITS.description} showCount rows={3} />
      </Form.Item>
      <FormError message={error} />
      <Button kind="primary" size="large" htmlType="submit" loading={update.isPending}>
        {t('save')}
      </Button>
    </Form>
  );
}
