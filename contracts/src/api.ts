/** API paths used by both the server routes and the web client. */
export const API = {
  sysSetting: '/gw/api/v1/sys/setting',
  langList: '/gw/api/v1/langList',
  apps: '/gw/api/v1/apps',
  openapi: '/gw/api/v1/openapi.json',
  fileDownload: '/gw/api/v1/files/download',
  authToken: '/gw/api/v1/auth/token',
  authLogin: '/gw/api/v1/auth/login',
  authLogout: '/gw/api/v1/auth/logout',
  authUaaLogout: '/gw/api/v1/auth/uaa_logout',
  authLoginInfo: '/gw/api/v1/auth/token/loginInfo',
  authVerifyCodeEnabled: '/gw/api/v1/auth/verifycode/enabled',
  formLogin: '/api/v1/auth/login',
  formLogout: '/api/v1/auth/logout',
  captcha: '/api/v1/auth/captcha',
  captchaCheck: '/api/v1/auth/captcha/check',
  imageCode: '/api/v1/auth/verifycode',
  userInfo: '/gw/api/v1/user/userInfo',
  eduUserInfo: '/gw/api/v1/edu_user/userInfo',
  sendCode: '/gw/api/v1/user/verifyCode/send',
  registerByPhone: '/gw/api/v1/user/register/byPhone',
  codeLogin: '/gw/api/v1/user/verifyCode/login',
  resetPassword: '/gw/api/v1/user/register/password/update',
  changePassword: '/gw/api/v1/auth/pwd',
  modifyPassword: '/api/v1/auth/pwd/modify',
  defaultPassword: '/gw/api/v1/auth/pwd/default',
  outbox: '/gw/api/v1/sys/outbox',
  pointsTotal: '/gw/api/v1/integral/total',
  avatarUpload: '/gw/api/v1/edu_user/avatar',
  avatar: '/gw/api/v1/user/avatar',
  bindContact: '/gw/api/v1/user/bind',
  teacherCertification: '/gw/api/v1/user/teacher',
  fuzzySearchSchool: '/gw/api/v1/user/fuzzySearchSchool',
  /** The administrative divisions under `parentCode`: none → the country `CN`; `CN` → provinces → cities → districts. */
  areaChildren: '/api/v1/area/children',
  userStats: '/gw/api/v1/user/stats',
  organizeGrades: '/api/v1/admin_organize/grades',
  smsToSelf: '/gw/api/v1/user/sms/send/message',
  projects: '/gw/api/v1/projects',
  myProjects: '/gw/api/v1/projects/mine',
  /** The storage the caller's projects take, against their quota. */
  accountStorage: '/api/v1/account/storage',
  runtimeAvailability: '/gw/api/v1/runtime/availability',
  computeBalance: '/gw/api/v1/runtime/balance',
  computeAllowances: '/api/v1/admin/compute-allowances',
  /** Super administrators: how runtimes are kept from the platform (network, processes, limits). */
  runtimeIsolation: '/api/v1/admin_super/runtime-isolation',
  /** The gateway to a project's Jupyter server: `${runtimeProxy}/<projectId>/api/...` (HTTP and WebSocket). */
  runtimeProxy: '/gw/api/v1/runtime',
  /** `PUT ${runtimeSockets}/<socket>/token`: the caller's fresh access token replaces an open socket's. */
  runtimeSockets: '/gw/api/v1/runtime/sockets',
  schoolHome: '/gw/api/v1/school/home',
  schoolModules: '/gw/api/v1/school/modules',
} as const;

/** Paths of one project's calls. */
export const projectApi = (id: string) => {
  const base = `${API.projects}/${id}`;
  return {
    base,
    fork: `${base}/fork`,
    collaborators: `${base}/collaborators`,
    versions: `${base}/versions`,
    restore: `${base}/versions/restore`,
    compare: `${base}/versions/compare`,
    files: `${base}/files`,
    fileContent: `${base}/files/content`,
    fileRename: `${base}/files/rename`,
    fileMove: `${base}/files/move`,
    fileCopy: `${base}/files/copy`,
    /** The storage its owner's projects take, against the owner's quota. */
    storage: `${base}/storage`,
    fileUpload: `${base}/files/upload`,
    fileDownload: `${base}/files/download`,
    runtime: `${base}/runtime`,
    runtimeStart: `${base}/runtime/start`,
    runtimeStop: `${base}/runtime/stop`,
    runtimeKeepOnline: `${base}/runtime/keepOnline`,
    packages: `${base}/packages`,
    packageOperations: `${base}/packages/operations`,
    proxy: `${API.runtimeProxy}/${id}`,
  };
};

/** Paths the server answers outside the API prefixes. */
export const SERVICE_PATHS = { healthz: '/healthz', readyz: '/readyz', apiDocs: '/api-docs' } as const;

/** Prefixes that belong to the API: unknown paths under them answer the JSON envelope, never the web app. */
export const API_PREFIXES = ['/gw/', '/api/', '/es/'] as const;

/**
 * Close codes of the gateway's WebSockets (kernels, terminals): the access token expired or its sign-in ended
 * (renew it, then reconnect), or the user may no longer edit the project (do not reconnect).
 */
export const RUNTIME_SOCKET_CLOSE = { renewToken: 4401, noAccess: 4403 } as const;

/**
 * The text frame the gateway sends on a kernel or terminal WebSocket when its access token expires, naming the
 * socket. The client renews the token and hands it to that socket (`PUT ${API.runtimeSockets}/<socket>/token`),
 * which stays open: nothing the kernel prints meanwhile is in flight across a reconnect. A client that cannot
 * closes the socket itself, renews the token and reconnects; a socket without a fresh token 10 s after the notice
 * closes with 4401.
 */
export interface RuntimeSocketNotice {
  gateway: 'renew-token';
  socket: string;
}

const NOTICE_START = '{"gateway":';

export const runtimeSocketNotice = (socket: string): string =>
  JSON.stringify({ gateway: 'renew-token', socket } satisfies RuntimeSocketNotice);

/** The gateway's notice in a text frame, or null for Jupyter's own frames (which never start this way). */
export function readRuntimeSocketNotice(text: string): RuntimeSocketNotice | null {
  if (!text.startsWith(NOTICE_START)) return null;
  try {
    const notice = JSON.parse(text) as Partial<RuntimeSocketNotice>;
    return notice.gateway === 'renew-token' && typeof notice.socket === 'string'
      ? { gateway: notice.gateway, socket: notice.socket }
      : null;
  } catch {
    return null;
  }
}
