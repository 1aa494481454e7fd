import { API, type TUserInfo } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import { readSession, USER_INFO_STORAGE_KEY, useLoggedIn } from './session';

/**
 * The signed-in user's profile (spec section 3, "cached user info"): fetched after sign-in, kept in
 * the query cache and in localStorage so the header shows the user at once on the next visit.
 */
export const USER_INFO_QUERY_KEY = [API.userInfo] as const;

interface CachedUserInfo {
  userId: string;
  info: TUserInfo;
}

/** The cached profile, when it belongs to the user signed in now. */
export function readCachedUserInfo(): TUserInfo | undefined {
  try {
    const raw = localStorage.getItem(USER_INFO_STORAGE_KEY);
    if (!raw) return undefined;
    const cached = JSON.parse(raw) as Partial<CachedUserInfo>;
    const { userId } = readSession();
    return userId && cached.userId === userId && cached.info ? cached.info : undefined;
  } catch {
    return undefined;
  }
}

export function cacheUserInfo(info: TUserInfo): void {
  try {
    localStorage.setItem(USER_INFO_STORAGE_KEY, JSON.stringify({ userId: info.id, info } satisfies CachedUserInfo));
  } catch {
    // Storage unavailable: the query cache still holds it for this visit.
  }
}

export async function fetchUserInfo(): Promise<TUserInfo> {
  const info = await api.get<TUserInfo>(API.userInfo);
  cacheUserInfo(info);
  return info;
}

/** The profile of the signed-in user (nothing while signed out). */
export function useUserInfo() {
  const loggedIn = useLoggedIn();
  return useQuery({
    queryKey: USER_INFO_QUERY_KEY,
    queryFn: fetchUserInfo,
    enabled: loggedIn,
    initialData: readCachedUserInfo,
    // The cached copy shows at once and is refreshed in the background.
    initialDataUpdatedAt: 0,
  });
}
