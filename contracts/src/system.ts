import { z } from 'zod';
import { LANGUAGES } from './languages.js';

export const ZEnvelope = <T extends z.ZodType>(data: T) =>
  z.object({ errorCode: z.string(), errorMsg: z.string(), data });

export const ZSysSetting = z.object({
  isCustomerSingle: z.boolean().describe('One-customer deployment: the login dialog hides the customer-code field'),
  isVerifyCode: z.boolean().describe('Every password login requires the slider captcha'),
  custcode: z
    .string()
    .nullable()
    .describe(
      "With isCustomerSingle, the code of the deployment's customer (its first enabled top-level customer), which the hidden field stands for; null otherwise",
    ),
  platformName: z
    .string()
    .nullable()
    .describe('The platform name a super administrator set; null: the product name in each language'),
  logoUrl: z
    .string()
    .nullable()
    .describe('Signed address of the logo a super administrator set; null: the product logo'),
});
export type TSysSetting = z.infer<typeof ZSysSetting>;

/** The longest platform name: it stands in the header beside the logo. */
export const PLATFORM_NAME_MAX = 30;

/**
 * The system configuration as super administrators edit it. `isCustomerSingle` and `isVerifyCode` are null when
 * they follow the deployment (`IS_CUSTOMER_SINGLE`, `IS_VERIFY_CODE`), whose values `deployment` gives.
 */
export const ZSystemConfig = z.object({
  platformName: z.string().nullable(),
  logoUrl: z.string().nullable(),
  isCustomerSingle: z.boolean().nullable(),
  isVerifyCode: z.boolean().nullable(),
  deployment: z.object({ isCustomerSingle: z.boolean(), isVerifyCode: z.boolean() }),
});
export type TSystemConfig = z.infer<typeof ZSystemConfig>;

export const ZUpdateSystemConfigRequest = z.object({
  platformName: z.string().trim().min(1).max(PLATFORM_NAME_MAX).nullable().optional(),
  isCustomerSingle: z.boolean().nullable().optional(),
  isVerifyCode: z.boolean().nullable().optional(),
});
export type TUpdateSystemConfigRequest = z.infer<typeof ZUpdateSystemConfigRequest>;

export const ZLanguageItem = z.object({ code: z.enum(LANGUAGES), name: z.string() });
export type TLanguageItem = z.infer<typeof ZLanguageItem>;

export const ZAppItem = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  path: z.string().describe('Where the product chooser sends the user'),
});
export type TAppItem = z.infer<typeof ZAppItem>;

export const ZHealth = z.object({ status: z.enum(['ok', 'unavailable']) });

/**
 * How full the server's disks are (`GET /api/v1/admin_super/disk`): the `MIN_FREE_DISK_MB` floor in bytes (0: none
 * kept), the data folder's disk, then the daily backups' when they are on another one. `state` is the data disk's
 * against the floor: `off` without one, `low` below it (notebooks and uploads refused), `near` within twice it.
 */
export const ZDiskSpace = z.object({
  floorBytes: z.number(),
  state: z.enum(['off', 'ok', 'near', 'low']),
  disks: z.array(
    z.object({
      kind: z.enum(['data', 'backups']),
      path: z.string(),
      freeBytes: z.number(),
      totalBytes: z.number(),
    }),
  ),
});
export type TDiskSpace = z.infer<typeof ZDiskSpace>;

/**
 * How the notebook runtimes of the answering server are kept from the platform, for the super administrators:
 * - `network`: `isolated` (the local driver's nftables rules: no address of this machine or its private networks),
 *   `policy` (Kubernetes: the `aiedu-runtimes` NetworkPolicy, enforced where the cluster's network plugin supports
 *   it) or `open` (runtimes reach the database, Redis and the API; `reason` says why and what to do);
 * - `networkMode`: with `internet` runtimes may reach the internet, with `none` only the addresses allowed;
 * - `processesHidden`: a runtime lists only its own processes;
 * - `limits`: how memory and CPU are bounded.
 */
export const ZRuntimeIsolation = z.object({
  driver: z.enum(['local', 'kubernetes']),
  network: z.enum(['isolated', 'policy', 'open']),
  networkMode: z.enum(['internet', 'none']),
  reason: z.string(),
  processesHidden: z.boolean(),
  limits: z.enum(['cgroup', 'rlimit', 'none']),
});
export type TRuntimeIsolation = z.infer<typeof ZRuntimeIsolation>;
