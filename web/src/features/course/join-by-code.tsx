import { COURSE_CODE } from '@aiedu/contracts';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from '../../app/feedback';
import { useLoggedIn } from '../../app/session';
import { openLoginDialog } from '../../app/sign-dialogs';
import { joinByCode } from './course-api';
import { coursePath } from './course-paths';

/** Joining a class's course with the 6-character code the teacher gave. */
export function JoinByCode() {
  const { t } = useTranslation('course');
  const navigate = useNavigate();
  const loggedIn = useLoggedIn();
  const [busy, setBusy] = useState(false);

  const join = async ({ code }: { code: string }) => {
    if (!loggedIn) {
      openLoginDialog();
      return;
    }
    setBusy(true);
    try {
      const course = await joinByCode(code.trim().toUpperCase());
      toast.success(t('join.joined', { name: course.name }));
      void navigate(coursePath(course.id));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form layout="inline" onFinish={join} className="course-join" requiredMark={false}>
      <Form.Item
        name="code"
        label={t('join.label')}
        rules={[
          {
            required: true,
            transform: (v: string) => v?.trim().toUpperCase(),
            pattern: COURSE_CODE,
            message: t('join.invalid'),
          },
        ]}
      >
        <Input
          placeholder={t('join.placeholder')}
          maxLength={6}
          autoComplete="off"
          size="large"
          className="course-join__input"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} size="large">
        {t('join.submit')}
      </Button>
    </Form>
  );
}
