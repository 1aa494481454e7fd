import {
  AuditOutlined,
  BookOutlined,
  CodeOutlined,
  DownOutlined,
  LogoutOutlined,
  ReadOutlined,
  SafetyCertificateOutlined,
  ScheduleOutlined,
  StarOutlined,
  SwapOutlined,
  TrophyOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { API, ROLES } from '@aiedu/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Avatar, Dropdown, type MenuProps } from 'antd';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PRODUCT_CHOOSER_PATH, usableProducts } from '../../features/products/product-access';
import { api } from '../api';
import { browser } from '../browser';
import { useAllowedModules } from '../institution';
import type { Module } from '../module-gate';
import { ADMIN_PATHS, PATHS } from '../paths';
import { clearSession, useSessionRoles } from '../session';
import { requirePasswordChange } from '../sign-dialogs';
import { useUserInfo } from '../user-info';

/** The user's pages; those of a module their institution switched off for their side are left out. */
const LINKS: {
  key:
    | 'myStudy'
    | 'myProjects'
    | 'myCourses'
    | 'schedules'
    | 'myContests'
    | 'myCertificates'
    | 'issueCertificates'
    | 'profile';
  to: string;
  icon: ReactNode;
  module?: Module;
  /** Shown only to this role. */
  role?: string;
}[] = [
  { key: 'myStudy', to: PATHS.profileStudy, icon: <ReadOutlined /> },
  { key: 'myProjects', to: PATHS.myProjects, icon: <CodeOutlined />, module: 'projects' },
  { key: 'myCourses', to: PATHS.myCourses, icon: <BookOutlined />, module: 'courses' },
  { key: 'schedules', to: PATHS.schedules, icon: <ScheduleOutlined />, module: 'courses', role: ROLES.teacher },
  { key: 'myContests', to: PATHS.myContests, icon: <TrophyOutlined />, module: 'events' },
  { key: 'myCertificates', to: '/admin/my-certificates', icon: <SafetyCertificateOutlined /> },
  { key: 'issueCertificates', to: ADMIN_PATHS.certificateIssuance, icon: <AuditOutlined />, role: ROLES.teacher },
  { key: 'profile', to: PATHS.profile, icon: <UserOutlined /> },
];

export const POINTS_QUERY_KEY = [API.pointsTotal] as const;

/**
 * The signed-in user in the header: avatar, nickname and points, with the user's pages, "Switch product" for a user
 * of more than one product, and "Log out".
 */
export function UserMenu() {
  const { t } = useTranslation();
  const user = useUserInfo();
  const allowed = useAllowedModules();
  const roles = useSessionRoles();
  const manyProducts = useMemo(() => usableProducts(roles).length > 1, [roles]);
  const mustChangePassword = user.data?.mustChangePassword === true;
  const points = useQuery({
    queryKey: POINTS_QUERY_KEY,
    queryFn: () => api.get<number>(API.pointsTotal),
    // Every other call is refused until an administrator-set password is replaced.
    enabled: user.data !== undefined && !mustChangePassword,
  });
  useEffect(() => {
    if (mustChangePassword) requirePasswordChange();
  }, [mustChangePassword]);

  const logout = useMutation({
    mutationFn: () => api.post(API.authLogout),
    // The user wants out even if the server cannot be reached.
    onSettled: () => {
      clearSession();
      browser.assign(PATHS.home);
    },
  });

  const name = user.data ? user.data.nickname || user.data.realName || user.data.username : '';
  const usable = (module?: Module) => !module || !allowed || allowed.has(module);
  const items: MenuProps['items'] = [
    ...(usable('mall')
      ? [
          {
            key: 'points',
            icon: <StarOutlined />,
            label: <Link to={PATHS.pointsMall}>{t('header.points', { count: points.data ?? 0 })}</Link>,
          },
          { type: 'divider' as const },
        ]
      : []),
    ...LINKS.filter((link) => usable(link.module) && (!link.role || roles.includes(link.role))).map(
      ({ key, to, icon }) => ({
        key,
        icon,
        label: <Link to={to}>{t(`header.${key}`)}</Link>,
      }),
    ),
    { type: 'divider' },
    ...(manyProducts
      ? [
          {
            key: 'switchProduct',
            icon: <SwapOutlined />,
            label: <Link to={PRODUCT_CHOOSER_PATH}>{t('header.switchProduct')}</Link>,
          },
        ]
      : []),
    { key: 'logout', icon: <LogoutOutlined />, label: t('header.logout'), onClick: () => logout.mutate() },
  ];

  return (
    <Dropdown menu={{ items }} trigger={['click']} placement="bottomRight">
      <button type="button" className="user-menu__trigger" aria-busy={logout.isPending}>
        <Avatar size={32} src={user.data?.avatarUrl ?? undefined} icon={<UserOutlined />} alt="" />
        <span className="visually-hidden">{t('header.accountMenu')}</span>
        <span className="user-menu__name">{name}</span>
        <DownOutlined aria-hidden="true" className="user-menu__caret" />
      </button>
    </Dropdown>
  );
}
