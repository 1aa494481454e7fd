/** Timings and sizes of the user interface (spec section 9), in milliseconds and pixels. */
export const TIMINGS = {
  codeCountdownSeconds: 60,
  refreshWaitMs: 800,
  promptDelayMs: 500,
  promptDelayShortMs: 300,
  profileRedirectMs: 1000,
  successToastMs: 3000,
  messageToastMs: 2000,
  resetDoneMs: 3000,
} as const;

export const UI_SIZES = {
  messageTopPx: 86,
  confirmDialogWidth: 472,
  noticeDialogWidth: 640,
  loginDialogWidth: 512,
} as const;

/** Session cookie lifetimes (spec section 9): the token cookie and stored login info last 365 days. */
export const SESSION_COOKIE_DAYS = 365;

/** The cookies that carry a web session (spec section 3); a token refresh replaces the first two. */
export const SESSION_COOKIES = { token: 'token', refreshToken: 'refreshToken', custcode: 'custcode' } as const;

/** Container types with a weekly compute-time balance (spec section 9). */
export const CONTAINER_TYPES = ['BASIC', 'ADVANCED', 'GPU'] as const;
export type ContainerType = (typeof CONTAINER_TYPES)[number];

/**
 * A project's runtime environment (spec 3): `python` has numpy and matplotlib; `ai` adds pandas, scikit-learn,
 * PyTorch, OpenCV, Pillow and SciPy (Debian's packages).
 */
export const RUNTIME_ENVIRONMENTS = ['python', 'ai'] as const;
export type RuntimeEnvironment = (typeof RUNTIME_ENVIRONMENTS)[number];

/** Roles as named in the login response. */
export const ROLES = {
  super: 'ROLE_SUPER',
  customerAdmin: 'ROLE_ADMIN',
  subCustomerAdmin: 'ROLE_SUBADMIN',
  schoolAdmin: 'ROLE_SCHOOLADMIN',
  organizeAdmin: 'ROLE_ADMINORGANIZE',
  teacher: 'ROLE_TEACHER',
  student: 'ROLE_STUDENT',
} as const;
export type Role = (typeof ROLES)[keyof typeof ROLES];
export const ALL_ROLES = Object.values(ROLES) as Role[];
