import { ADMIN_ROLES, hasEffectivePermission, ROLE_API, type Permission, type TMyRole } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../app/api';
import { useSessionRoles } from '../../app/session';

const isAdminRole = (role: string) => (ADMIN_ROLES as readonly string[]).includes(role);

/**
 * What the signed-in user may use of the administration: the permissions of their roles, narrowed by the custom
 * role an administrator account may hold (`GET /api/v1/role/mine`), as the server's guard narrows them. Until that
 * answer comes, and for everyone who is no administrator, the roles alone.
 */
export function useAdminAccess() {
  const roles = useSessionRoles();
  const mine = useQuery({
    queryKey: [ROLE_API.mine],
    queryFn: () => api.get<TMyRole>(ROLE_API.mine, { quiet: true }),
    enabled: roles.some(isAdminRole),
    staleTime: 60_000,
  });
  const custom = mine.data?.customRole ?? null;
  return { roles, custom, can: (permission: Permission) => hasEffectivePermission(roles, permission, custom) };
}
