import {
  ReadOutlined,
  IdcardOutlined,
  LockOutlined,
  PictureOutlined,
  SafetyCertificateOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Menu, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SignInRequired } from '../../app/sign-in-required';
import { useUserInfo } from '../../app/user-info';
import { AccountPanel } from './account-panel';
import { AvatarPanel } from './avatar-panel';
import { BasicInfoForm } from './basic-info-form';
import { CertificationPanel } from './certification-panel';
import { PasswordPanel } from './password-panel';
import { StudyPanel } from './study-panel';
import './profile.css';

export const PROFILE_SECTIONS = ['basic', 'study', 'account', 'avatar', 'certification', 'password'] as const;
export type ProfileSection = (typeof PROFILE_SECTIONS)[number];

const ICONS: Record<ProfileSection, ReactNode> = {
  basic: <UserOutlined />,
  study: <ReadOutlined />,
  account: <IdcardOutlined />,
  avatar: <PictureOutlined />,
  certification: <SafetyCertificateOutlined />,
  password: <LockOutlined />,
};

/**
 * `?slideKey=` names the section (`study`, where error F107 sends a user, is "My study"); an unknown one opens the
 * basic information.
 */
export function sectionOf(slideKey: string | null): ProfileSection {
  return PROFILE_SECTIONS.find((s) => s === slideKey) ?? 'basic';
}

/** `/pjedu/userprofile`: the signed-in user's profile, one section at a time (spec sections 2 and 3). */
export function ProfilePage() {
  const { t } = useTranslation('profile');
  return (
    <SignInRequired title={t('title')}>
      <Profile />
    </SignInRequired>
  );
}

function Profile() {
  const { t } = useTranslation('profile');
  const [params, setParams] = useSearchParams();
  const section = sectionOf(params.get('slideKey'));
  const user = useUserInfo();

  return (
    <div className="page profile-page">
      <h1 className="profile-page__title">{t('title')}</h1>
      <div className="profile-page__body">
        <nav aria-label={t('sectionsLabel')} className="profile-page__menu">
          <Menu
            mode="inline"
            selectedKeys={[section]}
            onClick={({ key }) => setParams({ slideKey: key })}
            items={PROFILE_SECTIONS.map((key) => ({ key, icon: ICONS[key], label: t(`sections.${key}`) }))}
          />
        </nav>
        <section className="profile-page__content" aria-labelledby="profile-section-title">
          <h2 id="profile-section-title">{t(`sections.${section}`)}</h2>
          {user.data ? <SectionBody section={section} /> : <Skeleton active paragraph={{ rows: 6 }} />}
        </section>
      </div>
    </div>
  );
}

function SectionBody({ section }: { section: ProfileSection }) {
  switch (section) {
    case 'account':
      return <AccountPanel />;
    case 'avatar':
      return <AvatarPanel />;
    case 'certification':
      return <CertificationPanel />;
    case 'password':
      return <PasswordPanel />;
    case 'study':
      return <StudyPanel />;
    default:
      return <BasicInfoForm />;
  }
}
