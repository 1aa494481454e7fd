import { Readable } from 'node:stream';
import {
  CONTAINER_TYPES,
  BANNER_TYPES,
  LIMITS,
  hasExtension,
  type ContainerType,
  type TSysSetting,
  type TSystemConfig,
  type TUpdateSystemConfigRequest,
} from '@aiedu/contracts';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '../../config.js';
import { writeAudit } from '../../platform/audit.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { customers, systemSettings } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { reencodeImage } from '../../platform/images.js';
import { countCustomersByContainerType } from '../institution/customer.service.js';

type SettingsRow = typeof systemSettings.$inferSelect;
type Settings = Omit<SettingsRow, 'id' | 'updatedAt'>;

const AS_DEPLOYED: Settings = {
  platformName: null,
  logoKey: null,
  isCustomerSingle: null,
  isVerifyCode: null,
  computeWeeklyMinutes: {},
};

/** A logo shows at most this large (it is shrunk to fit, never enlarged); a signed address lasts a week. */
const LOGO_BOX = { width: 512, height: 128 };
const LOGO_URL_SECONDS = 7 * 86_400;

/**
 * Every page and every sign-in reads the settings, and they change a few times a year: each process keeps them for
 * a few seconds (dropped at once when it writes them), so another process shows a change within that time.
 */
const SETTINGS_CACHE_MS = 5_000;
const cached = new WeakMap<Db, { until: number; settings: Promise<Settings> }>();

/** The stored settings, or "as deployed" before a super administrator changed any. */
export function readSystemSettings(db: Db): Promise<Settings> {
  const hit = cached.get(db);
  if (hit && hit.until > Date.now()) return hit.settings;
  const settings = db
    .select()
    .from(systemSettings)
    .where(eq(systemSettings.id, 'platform'))
    .then(([row]): Settings => row ?? AS_DEPLOYED);
  cached.set(db, { until: Date.now() + SETTINGS_CACHE_MS, settings });
  settings.catch(() => cached.delete(db));
  return settings;
}

/** Writes settings (creating the row on the first change) with their operation log, in one transaction. */
async function saveSystemSettings(
  ctx: AppContext,
  request: FastifyRequest,
  change: { values: Partial<Settings>; set?: Record<string, unknown> },
  operation: string,
  params: object = change.values,
) {
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(systemSettings)
      .values({ id: 'platform', ...change.values })
      .onConflictDoUpdate({ target: systemSettings.id, set: change.set ?? change.values });
    await writeAudit(tx, request, { module: 'system', operation, params, customerId: null });
  });
  cached.delete(ctx.db);
}

const logoUrl = (ctx: AppContext, settings: Settings) =>
  settings.logoKey ? ctx.storage.signedUrl(settings.logoKey, { expiresInSeconds: LOGO_URL_SECONDS }) : null;

/** What the sign-in and every page need: the sign-in switches in force, the platform's name and logo. */
export async function getSysSetting(ctx: AppContext): Promise<TSysSetting> {
  const settings = await readSystemSettings(ctx.db);
  const single = settings.isCustomerSingle ?? ctx.config.isCustomerSingle;
  return {
    isCustomerSingle: single,
    custcode: single ? await singleCustomerCode(ctx.db) : null,
    isVerifyCode: settings.isVerifyCode ?? ctx.config.isVerifyCode,
    platformName: settings.platformName,
    logoUrl: logoUrl(ctx, settings),
  };
}

/**
 * The customer a one-customer deployment's sign-in stands for, its customer-code field hidden: the first enabled
 * top-level customer made (ids are time-ordered), so a school that switches the demo customer off signs in to its own.
 * The sign-in's own statements look it up by the same rule (`findSingleCustomerId` in the auth repository).
 */
async function singleCustomerCode(db: Db): Promise<string | null> {
  const [first] = await db
    .select({ code: customers.code })
    .from(customers)
    .where(and(isNull(customers.parentId), eq(customers.enabled, true)))
    .orderBy(asc(customers.id))
    .limit(1);
  return first?.code ?? null;
}

/** Whether this is a one-customer deployment: the super administrators' choice, else the deployment's. */
export async function isCustomerSingle(db: Db, config: Config): Promise<boolean> {
  return (await readSystemSettings(db)).isCustomerSingle ?? config.isCustomerSingle;
}

/** Whether every password sign-in needs the slider captcha: the super administrators' choice, else the deployment's. */
export async function isVerifyCodeRequired(db: Db, config: Config): Promise<boolean> {
  return (await readSystemSettings(db)).isVerifyCode ?? config.isVerifyCode;
}

export async function getSystemConfig(ctx: AppContext): Promise<TSystemConfig> {
  const settings = await readSystemSettings(ctx.db);
  return {
    platformName: settings.platformName,
    logoUrl: logoUrl(ctx, settings),
    isCustomerSingle: settings.isCustomerSingle,
    isVerifyCode: settings.isVerifyCode,
    deployment: { isCustomerSingle: ctx.config.isCustomerSingle, isVerifyCode: ctx.config.isVerifyCode },
  };
}

export async function updateSystemConfig(ctx: AppContext, request: FastifyRequest, input: TUpdateSystemConfigRequest) {
  const values: Partial<Settings> = {};
  if (input.platformName !== undefined) values.platformName = input.platformName;
  if (input.isCustomerSingle !== undefined) values.isCustomerSingle = input.isCustomerSingle;
  if (input.isVerifyCode !== undefined) values.isVerifyCode = input.isVerifyCode;
  if (Object.keys(values).length > 0) await saveSystemSettings(ctx, request, { values }, 'update');
  return getSystemConfig(ctx);
}

/** Replaces the logo: JPG, PNG or BMP under 3 MB by content (the banners' rules), stored as a PNG. */
export async function setLogo(ctx: AppContext, request: FastifyRequest, file: { name: string; bytes: Buffer }) {
  if (!hasExtension(file.name, BANNER_TYPES)) throw new AppError('BAD_REQUEST', { reason: 'image type' });
  const png = await reencodeImage(file.bytes, ['jpeg', 'png', 'bmp'], { ...LOGO_BOX, fit: 'inside' });
  const logoKey = `system/logo-${uuidv7()}.png`;
  await ctx.storage.put(logoKey, Readable.from([png]), { maxBytes: LIMITS.bannerBytes * 4 });
  const previous = (await readSystemSettings(ctx.db)).logoKey;
  await saveSystemSettings(ctx, request, { values: { logoKey } }, 'logo', { file: file.name });
  if (previous) await ctx.storage.delete(previous);
  return getSystemConfig(ctx);
}

/** Back to the product's own logo. */
export async function removeLogo(ctx: AppContext, request: FastifyRequest) {
  const previous = (await readSystemSettings(ctx.db)).logoKey;
  await saveSystemSettings(ctx, request, { values: { logoKey: null } }, 'logo', { removed: true });
  if (previous) await ctx.storage.delete(previous);
  return getSystemConfig(ctx);
}

/** The weekly compute minutes of a runtime type for customers that set none: the platform's, else the deployment's. */
export async function defaultWeeklyMinutes(db: Db, config: Config, runtimeType: ContainerType): Promise<number> {
  return weeklyDefault(await readSystemSettings(db), config, runtimeType);
}

const weeklyDefault = (settings: Settings, config: Config, runtimeType: ContainerType) =>
  settings.computeWeeklyMinutes[runtimeType] ?? config.computeWeeklyMinutes[runtimeType];

/**
 * The container types as the console shows them: this server's CPU and memory, the default weekly minutes (the
 * platform's, else the deployment's) and how many customers are offered each.
 */
export async function getContainerTypes(ctx: AppContext) {
  const [settings, offered] = await Promise.all([readSystemSettings(ctx.db), countCustomersByContainerType(ctx)]);
  return CONTAINER_TYPES.map((runtimeType) => ({
    runtimeType,
    ...ctx.config.runtimeLimits[runtimeType],
    weeklyMinutes: weeklyDefault(settings, ctx.config, runtimeType),
    deploymentWeeklyMinutes: ctx.config.computeWeeklyMinutes[runtimeType],
    customized: settings.computeWeeklyMinutes[runtimeType] !== undefined,
    customers: offered[runtimeType] ?? 0,
  }));
}

/** Sets (or, with null, clears) the platform's default weekly minutes of a runtime type, in one statement. */
export async function setDefaultWeeklyMinutes(
  ctx: AppContext,
  request: FastifyRequest,
  runtimeType: ContainerType,
  weeklyMinutes: number | null,
) {
  const column = systemSettings.computeWeeklyMinutes;
  const set =
    weeklyMinutes === null
      ? sql`${column} - ${runtimeType}::text`
      : sql`${column} || jsonb_build_object(${runtimeType}::text, ${weeklyMinutes}::int)`;
  await saveSystemSettings(
    ctx,
    request,
    {
      values: { computeWeeklyMinutes: weeklyMinutes === null ? {} : { [runtimeType]: weeklyMinutes } },
      set: { computeWeeklyMinutes: set },
    },
    'container-type',
    { runtimeType, weeklyMinutes },
  );
}
