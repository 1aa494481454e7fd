import { API, ROLES, SESSION_COOKIE_DAYS, type TLoginResponse } from '@aiedu/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { writeCookie } from '../../app/cookies';
import { currentLanguage, LANGUAGE_COOKIE } from '../../app/i18n';
import { api } from '../../app/api';
import { readSession, saveGradeInfo, saveLogin, saveSessionFlags, type GradeInfo } from '../../app/session';
import { requirePasswordChange } from '../../app/sign-dialogs';
import { fetchUserInfo, USER_INFO_QUERY_KEY } from '../../app/user-info';

/**
 * Spec section 4: an organisation administrator's grade information is fetched after sign-in and stored; `isGrade`
 * says it was. Nothing happens for other users, for one who has it already, or when it cannot be fetched (then the
 * next sign-in or password change tries again).
 */
export async function fetchMissingGradeInfo(): Promise<void> {
  const session = readSession();
  if (!session.roles.includes(ROLES.organizeAdmin) || session.isGrade) return;
  try {
    saveGradeInfo(await api.get<GradeInfo[]>(API.organizeGrades));
    saveSessionFlags({ isGrade: true });
  } catch {
    // Not fetched: `isGrade` stays false.
  }
}

/**
 * Everything a successful sign-in does, whichever way it happened (password, phone code, sign-up,
 * third party): save the session (spec section 3), remember the language, fetch and cache the
 * profile, the grade information of an organisation administrator, and ask for a new password
 * when an administrator set the current one.
 */
export async function completeLogin(login: TLoginResponse, custcode: string, queryClient: QueryClient): Promise<void> {
  saveLogin({
    token: login.token,
    refreshToken: login.refreshToken,
    userId: login.id,
    roles: login.roles,
    schoolId: login.schoolId,
    custcode,
    isSuper: login.isSuper,
  });
  writeCookie(LANGUAGE_COOKIE, currentLanguage(), SESSION_COOKIE_DAYS);
  // Anything loaded for the visitor (or a previous user) is stale now.
  queryClient.removeQueries({ queryKey: USER_INFO_QUERY_KEY });
  void queryClient.invalidateQueries();
  if (login.mustChangePassword) requirePasswordChange();
  await Promise.all([
    queryClient.fetchQuery({ queryKey: USER_INFO_QUERY_KEY, queryFn: fetchUserInfo }).catch(() => undefined),
    // Refused (1118) until the password is changed: the password change dialog fetches them then.
    login.mustChangePassword ? undefined : fetchMissingGradeInfo(),
  ]);
}
