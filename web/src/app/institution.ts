import { API, type TInstitutionHome } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import { readSession, useLoggedIn } from './session';

const FIVE_MINUTES = 5 * 60_000;

/** The signed-in user's institution home (banners, project types, footer sites); none in the public space. */
export function useInstitutionHome() {
  const loggedIn = useLoggedIn();
  const custcode = loggedIn ? readSession().custcode : null;
  return useQuery({
    queryKey: [API.schoolHome, custcode],
    queryFn: () => api.get<TInstitutionHome>(API.schoolHome, { query: { custcode } }),
    enabled: Boolean(custcode),
    staleTime: FIVE_MINUTES,
  });
}

/**
 * The modules the signed-in user's side may use, as set by their institution; `null` (everything) for visitors
 * and the public space.
 */
export function useAllowedModules(): ReadonlySet<string> | null {
  const loggedIn = useLoggedIn();
  const custcode = loggedIn ? readSession().custcode : null;
  const modules = useQuery({
    queryKey: [API.schoolModules, custcode],
    queryFn: () => api.get<{ id: string }[]>(API.schoolModules),
    enabled: Boolean(custcode),
    staleTime: FIVE_MINUTES,
  });
  return modules.data ? new Set(modules.data.map((m) => m.id)) : null;
}
