import { API, ROLES, SESSION_COOKIE_DAYS, type TLoginResponse } from '@aiedu/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { writeCookie } from '../../app/cookies';
import { currentLanguage, LANGUAGE_COOKIE } from '../../app/i18n';
import { api } from '../../app/api';
import { saveGradeInfo, saveLogin, type GradeInfo } from '../../app/session';
import { requirePasswordChange } from '../../app/sign-dialogs';
import { fetchUserInfo, USER_INFO_QUERY_KEY } from '../../app/user-info';

/** Spec section 4: an organisation administrator's grade information is fetched after sign-in and stored. */
export async function fetchGradeInfo(): Promise<void> {
  saveGradeInfo(await api.get<GradeInfo[]>(API.organizeGrades));
}

/**
 * Everything a successful sign-in does, whichever way it happened (password, phone code, sign-up,
 * third party): save the session (spec section 3), remember the language, fetch and cache the
 * profile, the grade information of an organisation administrator, and ask for a new password
 * when an administrator set the current one.
 */
export async function completeLogin(login: TLoginResponse, custcode: string, queryClient: QueryClient): Promise<void> {
  const isGrade = login.roles.includes(ROLES.organizeAdmin);
  saveLogin({
    token: login.token,
    refreshToken: login.refreshToken,
    userId: login.id,
    roles: login.roles,
    custcode,
    isSuper: login.isSuper,
    isGrade,
  });
  writeCookie(LANGUAGE_COOKIE, currentLanguage(), SESSION_COOKIE_DAYS);
  // Anything loaded for the visitor (or a previous user) is stale now.
  queryClient.removeQueries({ queryKey: USER_INFO_QUERY_KEY });
  void queryClient.invalidateQueries();
  if (login.mustChangePassword) requirePasswordChange();
  await Promise.all([
    queryClient.fetchQuery({ queryKey: USER_INFO_QUERY_KEY, queryFn: fetchUserInfo }).catch(() => undefined),
    isGrade ? fetchGradeInfo().catch(() => undefined) : undefined,
  ]);
}
