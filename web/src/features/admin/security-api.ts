/** The calls of the identity and security screens (docs/api.md, "Identity" and "Request shield"). */
export const SECURITY_API = {
  outbox: '/gw/api/v1/sys/outbox',
  pendingCertifications: '/gw/api/v1/user/teacher/pending',
  certification: (id: string) => `/gw/api/v1/user/teacher/${id}/review`,
  ranges: '/gw/api/v1/sys/shield/ranges',
  providers: '/gw/api/v1/sys/sso/providers',
} as const;
