import path from 'node:path';
import { z } from 'zod';
import {
  parseNetworkAllowances,
  type NetworkAllowance,
  type RuntimeNetworkMode,
} from './modules/runtime/runtime-network.js';
import type { S3Options } from './platform/storage/s3-storage.js';
import { bool, httpAddress, parseTrustProxy, parseWarmPool } from './config-values.js';
import { isValidRange } from './platform/shield.js';

const ZEnv = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// connection URL')
      .optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    SQL_TRACE_FILE: z.string().min(1).optional(),
    SEED_DEMO: bool(true),
    SUPER_ADMIN_PASSWORD: z.string().min(8, 'expected at least 8 characters').optional(),
    IS_CUSTOMER_SINGLE: bool(false),
    IS_VERIFY_CODE: bool(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(1024 * 1024),
    FILE_URL_SECRET: z.string().min(32, 'expected at least 32 characters').optional(),
    WEB_DIST: z.string().optional(),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8000),
    TRUST_PROXY: z
      .string()
      .optional()
      .transform(parseTrustProxy)
      .refine(
        (trust) => trust !== null,
        'expected true, false, a number of proxies, or comma-separated proxy addresses or CIDR ranges',
      ),
    PUBLIC_URL: httpAddress('expected the http(s) address users open, e.g. https://ai.school.edu').optional(),
    INSTANCE_URL: z
      .url({ message: 'expected the http address other server processes reach this one at, e.g. http://10.0.3.7:8080' })
      .refine(
        (url) => url.startsWith('http://'),
        'expected an http:// address (processes talk over the internal network)',
      )
      .optional(),
    JWT_SECRET: z.string().min(32, 'expected at least 32 characters').optional(),
    REDIS_URL: z
      .url({ message: 'expected a Redis address, e.g. redis://10.0.3.9:6379' })
      .refine((url) => /^rediss?:\/\//.test(url), 'expected a redis:// or rediss:// address')
      .optional(),
    REDIS_KEY_PREFIX: z.string().min(1).max(64).default('aiedu:'),
    S3_BUCKET: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'expected an S3 bucket name (3-63 lower-case letters, digits, dots, hyphens)',
      )
      .optional(),
    S3_ENDPOINT: httpAddress('expected the http(s) address of the S3 service, e.g. http://10.0.3.10:9000').optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: bool(false),
    S3_PREFIX: z
      .string()
      .max(200)
      .regex(/^([\w-][\w.-]*\/)*$/, 'expected folder names each ending in /, e.g. school-a/')
      .default(''),
    S3_DIRECT_DOWNLOADS: bool(false),
    S3_PUBLIC_ENDPOINT: httpAddress(
      'expected the http(s) address browsers reach the S3 service at, e.g. https://files.school.example',
    ).optional(),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(1800),
    REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    COURSE_CENTRE_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
    CAPTCHA_AFTER_ACCOUNT_FAILURES: z.coerce.number().int().min(1).default(3),
    CAPTCHA_AFTER_ADDRESS_FAILURES: z.coerce.number().int().min(1).default(50),
    LOGIN_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
    CODES_PER_TARGET_PER_DAY: z.coerce.number().int().min(1).default(10),
    CODES_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(200),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'expected an smtp:// or smtps:// URL')
      .optional(),
    SMTP_FROM: z.string().default('AI Education Platform <no-reply@localhost>'),
    SMS_HTTP_URL: z.url({ message: 'expected an http(s) URL' }).optional(),
    SMS_HTTP_TOKEN: z.string().optional(),
    SHIELD_LOGIN_FAILURES_PER_HOUR: z.coerce.number().int().min(1).default(1000),
    SHIELD_CODE_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).default(300),
    SHIELD_CAPTCHA_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).default(1000),
    SHIELD_BLOCK_MINUTES: z.coerce.number().int().min(1).default(15),
    SHIELD_ALLOW: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean),
      )
      .refine((ranges) => ranges.every(isValidRange), 'expected comma-separated addresses or CIDR ranges'),
    RUNTIME_DRIVER: z.enum(['local', 'kubernetes']).default('local'),
    K8S_NAMESPACE: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'expected a namespace name, e.g. aiedu')
      .optional(),
    K8S_RUNTIME_IMAGE: z.string().min(1).optional(),
    K8S_WORKSPACE_CLAIM: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/, 'expected a PersistentVolumeClaim name')
      .optional(),
    K8S_GPU_RESOURCE: z
      .string()
      .default('nvidia.com/gpu')
      .transform((v) => (v === 'none' ? '' : v)),
    K8S_START_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(3600).default(180),
    RUNTIME_PYTHON: z.string().min(1).default('/usr/bin/python3'),
    RUNTIME_AUTO_INSTALL: bool(true),
    RUNTIME_IDLE_MINUTES: z.coerce
      .number()
      .min(0.01)
      .max(24 * 60)
      .default(30),
    RUNTIME_WARM_POOL: z
      .string()
      .default('BASIC=1')
      .transform(parseWarmPool)
      .refine((sizes) => sizes !== null, 'expected a count (every runtime type) or BASIC=n,ADVANCED=n,GPU=n'),
    RUNTIME_UID_BASE: z.coerce.number().int().min(1000).max(2_000_000_000).default(200_000),
    RUNTIME_BASIC_CPU: z.coerce.number().min(0.1).max(256).default(1),
    RUNTIME_BASIC_MEMORY_MB: z.coerce.number().int().min(128).default(1024),
    RUNTIME_ADVANCED_CPU: z.coerce.number().min(0.1).max(256).default(2),
    RUNTIME_ADVANCED_MEMORY_MB: z.coerce.number().int().min(128).default(2048),
    RUNTIME_GPU_CPU: z.coerce.number().min(0.1).max(256).default(4),
    RUNTIME_GPU_MEMORY_MB: z.coerce.number().int().min(128).default(4096),
    RUNTIME_MAX_PROCESSES: z.coerce.number().int().min(64).max(1_000_000).default(512),
    CHECK_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(120),
    CHECKS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
    CHECK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(2),
    EVENT_RUN_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(1),
    EVENT_RUN_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(300),
    MIN_FREE_DISK_MB: z.coerce.number().int().min(0).max(1_000_000_000).default(1024),
    COMPUTE_WEEKLY_MINUTES_BASIC: z.coerce.number().int().min(0).default(600),
    COMPUTE_WEEKLY_MINUTES_ADVANCED: z.coerce.number().int().min(0).default(300),
    COMPUTE_WEEKLY_MINUTES_GPU: z.coerce.number().int().min(0).default(60),
    USER_STORAGE_QUOTA_MB: z.coerce.number().int().min(1).default(2048),
    DATASET_MAX_ZIP_MB: z.coerce.number().int().min(1).max(1_000_000).default(2048),
    DATASET_MAX_ENTRIES: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
    DATASET_MAX_UNPACKED_MB: z.coerce.number().int().min(1).max(100_000_000).default(8192),
    CERT_SIGNING_KEY: z
      .string()
      .includes('BEGIN PRIVATE KEY', { message: 'expected an Ed25519 private key in PKCS #8 PEM' })
      .optional(),
    CERT_FONT_FILE: z.string().optional(),
    CERT_FONT_BOLD_FILE: z.string().optional(),
    CERT_VERIFY_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
    PIP_INDEX_URL: z
      .string()
      .regex(/^(https?|file):\/\//, 'expected an http(s):// or file:// index URL')
      .optional(),
    RUNTIME_NETWORK: z.enum(['internet', 'none']).default('internet'),
    RUNTIME_NETWORK_ALLOW: z
      .string()
      .default('')
      .transform(parseNetworkAllowances)
      .refine(
        (allow) => allow !== null,
        'expected comma-separated addresses or CIDR ranges, each with an optional port (10.0.0.5:3141, [fd00::5]:3141)',
      ),
    METRICS_TOKEN: z.string().min(16, 'expected at least 16 characters').optional(),
    BACKUP_DIR: z.string().min(1).optional(),
    BACKUP_AT: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected a time of day as HH:MM, e.g. 02:30')
      .default('02:00'),
    BACKUP_KEEP: z.coerce.number().int().min(1).max(365).default(7),
  })
  .superRefine((env, context) => {
    if (env.RUNTIME_DRIVER === 'kubernetes') {
      for (const name of ['K8S_RUNTIME_IMAGE', 'K8S_WORKSPACE_CLAIM'] as const) {
        if (!env[name])
          context.addIssue({ code: 'custom', path: [name], message: 'required with RUNTIME_DRIVER=kubernetes' });
      }
    }
    // Keys come in pairs; without either, the SDK's own chain (AWS_* variables, a profile, a role) answers.
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      const missing = env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
      context.addIssue({
        code: 'custom',
        path: [missing],
        message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together',
      });
    }
    if (env.S3_DIRECT_DOWNLOADS && !env.S3_BUCKET) {
      context.addIssue({ code: 'custom', path: ['S3_DIRECT_DOWNLOADS'], message: 'used only with S3_BUCKET' });
    }
    if (env.S3_PUBLIC_ENDPOINT && !env.S3_DIRECT_DOWNLOADS) {
      context.addIssue({
        code: 'custom',
        path: ['S3_PUBLIC_ENDPOINT'],
        message: 'used only with S3_DIRECT_DOWNLOADS=true',
      });
    }
  });

export interface KubernetesOptions {
  /** Unset: the service account's namespace in a cluster, else the kubeconfig context's, else `default`. */
  namespace: string | undefined;
  image: string;
  /** The ReadWriteMany claim mounted at `DATA_DIR/runtime` in every server pod. */
  workspaceClaim: string;
  gpuResource: string;
  startTimeoutMs: number;
}

export interface RuntimeLimits {
  cpu: number;
  memoryMb: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** Every request's SQL statements are appended here, one JSON line a request (`npm run bench -- everyday`). */
  sqlTraceFile: string | undefined;
  seedDemo: boolean;
  superAdminPassword: string | undefined;
  isCustomerSingle: boolean;
  isVerifyCode: boolean;
  logLevel: string;
  bodyLimitBytes: number;
  fileUrlSecret: string | undefined;
  webDist: string | undefined;
  shutdownTimeoutMs: number;
  /** Whether requests come through proxies whose `X-Forwarded-*` headers the server believes. */
  trustProxy: boolean;
  /**
   * Which proxies (with `trustProxy`): how many hops nearest the server, each having added on the right of
   * `X-Forwarded-For` the address it received from, or the proxies' addresses and CIDR ranges.
   */
  trustedProxies: number | string[];
  /** The address users open; identity providers send them back here. */
  publicUrl: string;
  /**
   * The address other server processes reach this one at (its gateway forwards notebook traffic to the process that
   * runs the runtime); unset: `http://127.0.0.1:<the port it listens on>`, enough for processes on one machine.
   */
  instanceUrl: string | undefined;
  jwtSecret: string | undefined;
  /** The Redis the processes of a deployment share (shield counts and blocks, ended sign-ins); unset: none. */
  redisUrl: string | undefined;
  /** What every Redis key and channel of this deployment starts with. */
  redisKeyPrefix: string;
  /** Files in an S3 bucket instead of `DATA_DIR/files` (needed when processes run on several machines). */
  s3: S3Options | undefined;
  /** How long a process keeps a page of the course centre (0: not at all). */
  courseCentreCacheSeconds: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  captchaAfterAccountFailures: number;
  captchaAfterAddressFailures: number;
  loginFailureWindowMinutes: number;
  codesPerTargetPerDay: number;
  codesPerAddressPerHour: number;
  smtpUrl: string | undefined;
  smtpFrom: string;
  smsHttpUrl: string | undefined;
  smsHttpToken: string | undefined;
  shieldLoginFailuresPerHour: number;
  shieldCodeRequestsPerHour: number;
  shieldCaptchaRequestsPerHour: number;
  shieldBlockMinutes: number;
  shieldAllow: string[];
  runtimeDriver: 'local' | 'kubernetes';
  /** Runtimes as pods (`RUNTIME_DRIVER=kubernetes`); null with the local driver. */
  kubernetes: KubernetesOptions | null;
  /** Debian's Python with jupyter-server and ipykernel. */
  runtimePython: string;
  /** Install the runtime's Debian packages at start when missing (root with apt only). */
  runtimeAutoInstall: boolean;
  runtimeIdleMinutes: number;
  /** Each project's runtime runs as system user `base + project number` when the server runs as root. */
  runtimeUidBase: number;
  runtimeLimits: Record<'BASIC' | 'ADVANCED' | 'GPU', RuntimeLimits>;
  /** Processes and threads one runtime may have at once (a fork bomb stops there, not at the machine's limit). */
  runtimeMaxProcesses: number;
  /**
   * Experiment checks: the longest a check may run (an author may set less), how many one learner may start per
   * question in an hour, and how many one process runs at once (the others wait their turn).
   */
  checks: { timeoutSeconds: number; perHour: number; concurrency: number };
  /**
   * Auto-scored event tracks: evaluations one process runs at once (0: none here, other processes run them) and the
   * longest an organiser's evaluation script may run on one predictions file.
   */
  eventRuns: { concurrency: number; timeoutSeconds: number };
  /**
   * Free space (MiB) the server keeps on the disk of DATA_DIR: uploads that would go below it, runtime starts and
   * package installs are refused, and local runtimes that keep writing below it are stopped; 0 turns it off.
   */
  minFreeDiskMb: number;
  /** Jupyter servers started ahead per runtime type (warm pool); 0 starts every runtime on demand. */
  runtimeWarmPool: Record<'BASIC' | 'ADVANCED' | 'GPU', number>;
  /** Weekly compute minutes per runtime type where a customer has set none. */
  computeWeeklyMinutes: Record<'BASIC' | 'ADVANCED' | 'GPU', number>;
  userStorageQuotaBytes: number;
  /**
   * A dataset's zip: its own size, its entries (folders included) and the bytes it may unpack to, checked from its
   * central directory before anything is extracted.
   */
  datasets: { maxZipBytes: number; maxEntries: number; maxUnpackedBytes: number };
  /**
   * Certificates: the Ed25519 key that signs Open Badges credentials (unset: one generated once in
   * `DATA_DIR/secrets`; several processes must share it through configuration), the TrueType fonts drawn (unset:
   * Noto Sans SC, every character of the four languages) and how many verifications one address may ask a minute.
   */
  certificates: {
    signingKeyPem: string | undefined;
    fontFile: string | undefined;
    boldFontFile: string | undefined;
    verifyPerMinute: number;
  };
  pipIndexUrl: string | undefined;
  /** What notebook runtimes may reach over the network (runtime-network.ts). */
  runtimeNetwork: { mode: RuntimeNetworkMode; allow: NetworkAllowance[] };
  /** A backup every day at `at` (the server's local time) into `dir`, keeping the newest `keep`; off when unset. */
  scheduledBackups: { dir: string; at: string; keep: number } | null;
  /** The bearer token Prometheus scrapes `/metrics` with; unset: no `/metrics`. */
  metricsToken: string | undefined;
}

export class ConfigError extends Error {}

/** Reads the configuration from the environment; a wrong value throws one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = ZEnv.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    // A secret's value stays out of the message (and so out of the logs that collect it).
    const shown = /SECRET|PASSWORD|TOKEN/.test(name)
      ? '=(hidden)'
      : env[name]
        ? `=${JSON.stringify(env[name])}`
        : ' (unset)';
    throw new ConfigError(`Invalid environment variable ${name}${shown}: ${issue.message}`);
  }
  const e = result.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    sqlTraceFile: e.SQL_TRACE_FILE,
    seedDemo: e.SEED_DEMO,
    superAdminPassword: e.SUPER_ADMIN_PASSWORD,
    isCustomerSingle: e.IS_CUSTOMER_SINGLE,
    isVerifyCode: e.IS_VERIFY_CODE,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    fileUrlSecret: e.FILE_URL_SECRET,
    webDist: e.WEB_DIST,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    trustProxy: e.TRUST_PROXY!.trust,
    trustedProxies: e.TRUST_PROXY!.proxies,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    instanceUrl: e.INSTANCE_URL?.replace(/\/+$/, ''),
    jwtSecret: e.JWT_SECRET,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          prefix: e.S3_PREFIX,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          credentials:
            e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
              : undefined,
          directDownloads: e.S3_DIRECT_DOWNLOADS,
          publicEndpoint: e.S3_PUBLIC_ENDPOINT,
        }
      : undefined,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    courseCentreCacheSeconds: e.COURSE_CENTRE_CACHE_SECONDS,
    captchaAfterAccountFailures: e.CAPTCHA_AFTER_ACCOUNT_FAILURES,
    captchaAfterAddressFailures: e.CAPTCHA_AFTER_ADDRESS_FAILURES,
    loginFailureWindowMinutes: e.LOGIN_FAILURE_WINDOW_MINUTES,
    codesPerTargetPerDay: e.CODES_PER_TARGET_PER_DAY,
    codesPerAddressPerHour: e.CODES_PER_ADDRESS_PER_HOUR,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    smsHttpUrl: e.SMS_HTTP_URL,
    smsHttpToken: e.SMS_HTTP_TOKEN,
    shieldLoginFailuresPerHour: e.SHIELD_LOGIN_FAILURES_PER_HOUR,
    shieldCodeRequestsPerHour: e.SHIELD_CODE_REQUESTS_PER_HOUR,
    shieldCaptchaRequestsPerHour: e.SHIELD_CAPTCHA_REQUESTS_PER_HOUR,
    shieldBlockMinutes: e.SHIELD_BLOCK_MINUTES,
    shieldAllow: e.SHIELD_ALLOW,
    runtimeDriver: e.RUNTIME_DRIVER,
    kubernetes:
      e.RUNTIME_DRIVER === 'kubernetes'
        ? {
            namespace: e.K8S_NAMESPACE,
            image: e.K8S_RUNTIME_IMAGE!,
            workspaceClaim: e.K8S_WORKSPACE_CLAIM!,
            gpuResource: e.K8S_GPU_RESOURCE,
            startTimeoutMs: e.K8S_START_TIMEOUT_SECONDS * 1000,
          }
        : null,
    runtimePython: e.RUNTIME_PYTHON,
    runtimeAutoInstall: e.RUNTIME_AUTO_INSTALL,
    runtimeIdleMinutes: e.RUNTIME_IDLE_MINUTES,
    runtimeUidBase: e.RUNTIME_UID_BASE,
    runtimeLimits: {
      BASIC: { cpu: e.RUNTIME_BASIC_CPU, memoryMb: e.RUNTIME_BASIC_MEMORY_MB },
      ADVANCED: { cpu: e.RUNTIME_ADVANCED_CPU, memoryMb: e.RUNTIME_ADVANCED_MEMORY_MB },
      GPU: { cpu: e.RUNTIME_GPU_CPU, memoryMb: e.RUNTIME_GPU_MEMORY_MB },
    },
    runtimeMaxProcesses: e.RUNTIME_MAX_PROCESSES,
    checks: { timeoutSeconds: e.CHECK_TIMEOUT_SECONDS, perHour: e.CHECKS_PER_HOUR, concurrency: e.CHECK_CONCURRENCY },
    eventRuns: { concurrency: e.EVENT_RUN_CONCURRENCY, timeoutSeconds: e.EVENT_RUN_TIMEOUT_SECONDS },
    minFreeDiskMb: e.MIN_FREE_DISK_MB,
    runtimeWarmPool: e.RUNTIME_WARM_POOL!,
    computeWeeklyMinutes: {
      BASIC: e.COMPUTE_WEEKLY_MINUTES_BASIC,
      ADVANCED: e.COMPUTE_WEEKLY_MINUTES_ADVANCED,
      GPU: e.COMPUTE_WEEKLY_MINUTES_GPU,
    },
    userStorageQuotaBytes: e.USER_STORAGE_QUOTA_MB * 1024 * 1024,
    datasets: {
      maxZipBytes: e.DATASET_MAX_ZIP_MB * 1024 * 1024,
      maxEntries: e.DATASET_MAX_ENTRIES,
      maxUnpackedBytes: e.DATASET_MAX_UNPACKED_MB * 1024 * 1024,
    },
    certificates: {
      signingKeyPem: e.CERT_SIGNING_KEY,
      fontFile: e.CERT_FONT_FILE,
      boldFontFile: e.CERT_FONT_BOLD_FILE,
      verifyPerMinute: e.CERT_VERIFY_PER_MINUTE,
    },
    pipIndexUrl: e.PIP_INDEX_URL,
    runtimeNetwork: { mode: e.RUNTIME_NETWORK, allow: e.RUNTIME_NETWORK_ALLOW! },
    metricsToken: e.METRICS_TOKEN,
    scheduledBackups: e.BACKUP_DIR ? { dir: path.resolve(e.BACKUP_DIR), at: e.BACKUP_AT, keep: e.BACKUP_KEEP } : null,
  };
}
