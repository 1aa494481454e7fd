import { PlusOutlined } from '@ant-design/icons';
import { ROLES, type TCourseAuthorStatus } from '@aiedu/contracts';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../../app/paths';
import { readSession, useLoggedIn } from '../../app/session';
import { LinkButton } from '../../ui/link-button';
import { useAuthorStatus } from './course-api';
import { NEW_COURSE_PATH } from './course-paths';

/** The profile's teacher certification, where a teacher applies for it (spec section 2, "User profile"). */
export const CERTIFICATION_PATH = `${PATHS.profile}?slideKey=certification`;

/**
 * Whether the signed-in user may create a course (spec section 6: certified teachers only): `undefined` while a
 * teacher's status is being asked, and the latest certification request that says why not.
 */
export function useCourseCreation(): { canCreate: boolean | undefined; status: TCourseAuthorStatus | undefined } {
  const loggedIn = useLoggedIn();
  const isTeacher = loggedIn && readSession().roles.includes(ROLES.teacher);
  const status = useAuthorStatus(isTeacher);
  if (!isTeacher) return { canCreate: false, status: undefined };
  return { canCreate: status.data?.canCreate, status: status.data };
}

type Reason = 'none' | 'pending' | 'rejected' | 'certified';

/** What a user who may not create a course needs, and the way to the profile's teacher certification. */
export function CertificationNeeded({ status }: { status: TCourseAuthorStatus | undefined }) {
  const { t } = useTranslation('course');
  const reason: Reason = status?.certification?.status ?? 'none';
  return (
    <Alert
      className="course-author-gate"
      type="info"
      showIcon
      title={t('author.title')}
      description={
        <>
          <p>{t(`author.${reason}`)}</p>
          {reason === 'rejected' && status?.certification?.reason && (
            <p>{t('author.reason', { reason: status.certification.reason })}</p>
          )}
          {reason !== 'certified' && (
            <Link to={CERTIFICATION_PATH}>{t(reason === 'pending' ? 'author.view' : 'author.apply')}</Link>
          )}
        </>
      }
    />
  );
}

/** "Create a course" for those who may; for a teacher who may not yet, what is needed instead of the form. */
export function CreateCourseAction() {
  const { t } = useTranslation('course');
  const { canCreate, status } = useCourseCreation();
  if (canCreate) {
    return (
      <LinkButton kind="primary" size="large" to={NEW_COURSE_PATH} icon={<PlusOutlined />}>
        {t('centre.create')}
      </LinkButton>
    );
  }
  return status ? <CertificationNeeded status={status} /> : null;
}
