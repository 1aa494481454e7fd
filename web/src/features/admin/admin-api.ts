import { API, ROLE_API, type TClassOption } from '@aiedu/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { toast } from '../../app/feedback';
import { i18n } from '../../app/i18n';
import { saveFile } from '../../ui/save-file';

/** The administration calls (docs/api.md, "Institutions"). */
export const ADMIN_API = {
  customers: '/api/v1/admin_super/organizes',
  subCustomers: '/api/v1/admin/sub-customers',
  subCustomerLimits: '/api/v1/admin/sub-customers/limits',
  schools: '/api/v1/admin_organize/schools',
  schoolInfo: '/api/v1/admin_organize/school_info',
  periods: '/api/v1/admin_organize/periods',
  classes: '/gw/admin/api/v1/school/classes',
  upgradeSchedules: '/gw/admin/api/v1/school/classes/upgrade-schedules',
  teachers: '/gw/admin/api/v1/school/teachers',
  students: '/gw/admin/api/v1/school/students',
  logs: '/api/v1/admin/logs',
  stats: '/gw/api/v1/user/stats',
  containerTypes: '/api/v1/admin_super/container-types',
  modules: '/api/v1/admin_super/modules',
  institutionHome: '/api/v1/admin/institution-home',
  home: '/gw/api/v1/school/home',
  users: '/api/v1/user',
  roles: ROLE_API.base,
  roleSearch: ROLE_API.search,
  roleBatchDelete: ROLE_API.batchDelete,
  systemConfig: '/api/v1/admin_super/system-config',
  backup: '/api/v1/admin_super/backup',
  disk: '/api/v1/admin_super/disk',
  runtimeIsolation: API.runtimeIsolation,
  containerTypesConfig: '/api/v1/admin_super/container-types/config',
  customerModules: (customerId: string) => `/api/v1/admin_super/organizes/${customerId}/modules`,
} as const;

export interface SchoolOption {
  id: string;
  customerId: string;
  name: string;
  eduStages: string[];
  enabled: boolean;
}

/** The schools the signed-in administrator administers (school staff: their own). */
export function useSchoolOptions(enabled = true) {
  return useQuery({
    queryKey: [ADMIN_API.schoolInfo],
    queryFn: () => api.get<SchoolOption[]>(ADMIN_API.schoolInfo),
    staleTime: 60_000,
    enabled,
  });
}

/** Every current class of the caller's scope, for class pickers; refreshed with the class lists. */
export function useClassOptions() {
  return useQuery({
    queryKey: [ADMIN_API.classes, 'options'],
    queryFn: () => api.get<TClassOption[]>(`${ADMIN_API.classes}/options`),
    staleTime: 60_000,
  });
}

/**
 * A change that, once done, says so and refreshes the lists it touched (by the first element of their query
 * keys). Refusals are shown by the API client with the server's message.
 */
export function useAdminMutation<TInput, TResult = unknown>(
  run: (input: TInput) => Promise<TResult>,
  refresh: readonly string[],
  onDone?: (result: TResult) => void,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async (result) => {
      toast.success(i18n.t('admin:common.saved'));
      await Promise.all(refresh.map((key) => client.invalidateQueries({ queryKey: [key] })));
      onDone?.(result);
    },
  });
}

/** Downloads an xlsx answer of the API (exports, templates) under a file name. */
export async function downloadXlsx(path: string, fileName: string, query: Record<string, string | undefined> = {}) {
  saveFile(await api.download(path, { query }), fileName);
}
