import { Readable } from 'node:stream';
import {
  BANNER_TYPES,
  LIMITS,
  MODULES,
  ROLES,
  hasExtension,
  type TInstitutionHome,
  type TSideModules,
} from '@aiedu/contracts';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { v7 as uuidv7 } from 'uuid';
import { writeAudit } from '../../platform/audit.js';
import type { AppContext } from '../../platform/context.js';
import { customerCodeIs, customerHomes, customers } from '../../platform/db/schema/index.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import { AppError } from '../../platform/errors.js';
import { reencodeImage } from '../../platform/images.js';
import { KeptAnswers } from '../../platform/kept-answers.js';
import { customerChain } from './customer-offer.service.js';

type HomeRow = typeof customerHomes.$inferSelect;
type Module = (typeof MODULES)[number];
type Home = Pick<HomeRow, 'banners' | 'projectTypes' | 'footerSites' | 'modules'>;

async function homeRow(ctx: AppContext, customerId: string): Promise<Home> {
  const [row] = await ctx.db.select().from(customerHomes).where(eq(customerHomes.customerId, customerId));
  return row ?? { banners: [], projectTypes: [], footerSites: [], modules: null };
}

/**
 * How long a process keeps an institution's home page: every visitor of every school opens it, and it changes only
 * when its administrators edit it, which drops it everywhere at once. The lifetime bounds only what no write
 * announces (a banner's signed link is good for days).
 */
const HOME_KEPT_MS = 60_000;
const keptHomes = new WeakMap<AppContext['db'], KeptAnswers<string>>();

/** The institution homes this process keeps, each as the answer's JSON, by lower-case customer code. */
export function keptInstitutionHomes(ctx: AppContext): KeptAnswers<string> {
  let kept = keptHomes.get(ctx.db);
  if (!kept) {
    kept = new KeptAnswers(ctx.cluster, 'institution-home-changed', { max: 10_000, ttlMs: HOME_KEPT_MS });
    keptHomes.set(ctx.db, kept);
  }
  return kept;
}

/** The institution's home as its visitors see it: banners (signed image URLs), project types, footer, modules. */
export async function getInstitutionHome(ctx: AppContext, custcode: string): Promise<TInstitutionHome> {
  const [customer] = await ctx.db.select().from(customers).where(customerCodeIs(custcode));
  if (!customer?.enabled) throw new AppError('NOT_FOUND');
  const home = await homeRow(ctx, customer.id);
  return {
    custcode: customer.code,
    name: customer.name,
    banners: home.banners.map((b) => ({
      imageUrl: ctx.storage.signedUrl(b.imageKey, { expiresInSeconds: 7 * 86_400 }),
      link: b.link,
    })),
    projectTypes: home.projectTypes,
    footerSites: home.footerSites,
    modules: await effectiveModules(ctx, customer.id),
  };
}

/**
 * The modules a customer's two sides may use: those set for it (everything until set), narrowed by those of every
 * customer above it, so a sub-customer never has a module its parent was not given.
 */
async function effectiveModules(ctx: AppContext, customerId: string) {
  const chain = await customerChain(ctx.db, customerId);
  const homes = await ctx.db.select().from(customerHomes).where(inArray(customerHomes.customerId, chain));
  const allowed = (side: 'teacher' | 'student') =>
    MODULES.filter((m) => homes.every((home) => home.modules === null || home.modules[side].includes(m)));
  return { teacher: allowed('teacher'), student: allowed('student') };
}

/** The side of a customer's people a caller is on: students on the student side, everyone else on the teachers'. */
export const sideOf = (auth: AuthContext): 'teacher' | 'student' =>
  auth.roles.includes(ROLES.student) ? 'student' : 'teacher';

/**
 * How long a process keeps a customer's modules for the module guard. A change made on this process takes effect at
 * once (the kept answers are dropped); on other processes of a deployment, within this time.
 */
export const MODULES_KEPT_MS = 5_000;
const keptModules = new WeakMap<AppContext['db'], LRUCache<string, TSideModules>>();

/** The modules of a customer's two sides as `effectiveModules` answers them, kept for a few seconds per process. */
export async function keptEffectiveModules(ctx: AppContext, customerId: string): Promise<TSideModules> {
  let kept = keptModules.get(ctx.db);
  if (!kept) keptModules.set(ctx.db, (kept = new LRUCache({ max: 10_000, ttl: MODULES_KEPT_MS })));
  const known = kept.get(customerId);
  if (known) return known;
  const modules = await effectiveModules(ctx, customerId);
  kept.set(customerId, modules);
  return modules;
}

async function customerHome(ctx: AppContext, customerId: string): Promise<Home> {
  const [customer] = await ctx.db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
  if (!customer) throw new AppError('NOT_FOUND');
  return homeRow(ctx, customerId);
}

/** The modules a customer's teachers and students may use (everything its parents allow until they were set). */
export async function getCustomerModules(ctx: AppContext, customerId: string) {
  await customerHome(ctx, customerId);
  return effectiveModules(ctx, customerId);
}

/**
 * Sets the modules of a customer's two sides, as only a super administrator does from the console; a sub-customer
 * keeps only those its parent has too.
 */
export async function setCustomerModules(
  ctx: AppContext,
  request: FastifyRequest,
  customerId: string,
  modules: { teacher: Module[]; student: Module[] },
) {
  await customerHome(ctx, customerId);
  await saveHome(ctx, request, customerId, { modules }, 'modules');
  // The customers below it change with it.
  keptModules.get(ctx.db)?.clear();
  return effectiveModules(ctx, customerId);
}

async function saveHome(
  ctx: AppContext,
  request: FastifyRequest,
  customerId: string,
  values: Partial<HomeRow>,
  operation: string,
) {
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(customerHomes)
      .values({ customerId, ...values })
      .onConflictDoUpdate({ target: customerHomes.customerId, set: values });
    await writeAudit(tx, request, { module: 'institution-home', operation, params: values, customerId });
  });
  // Modules set on a customer change those below it too: every kept home goes.
  await keptInstitutionHomes(ctx).forget();
}

/** The institution's own home content (its modules are set by a super administrator, see `setCustomerModules`). */
export async function updateInstitutionHome(
  ctx: AppContext,
  request: FastifyRequest,
  customerId: string,
  input: {
    bannerLinks?: string[] | undefined;
    projectTypes?: string[] | undefined;
    footerSites?: { name: string; url: string }[] | undefined;
  },
) {
  const current = await homeRow(ctx, customerId);
  const values: Partial<HomeRow> = {};
  if (input.bannerLinks)
    values.banners = current.banners.map((b, i) => ({ ...b, link: input.bannerLinks![i] ?? b.link }));
  if (input.projectTypes) values.projectTypes = input.projectTypes;
  if (input.footerSites) values.footerSites = input.footerSites;
  await saveHome(ctx, request, customerId, values, 'update');
}

/** Replaces banner `slot` (0–2): JPG/PNG/BMP under 3 MB by content, stored as a 1920×300 PNG. */
export async function setBanner(
  ctx: AppContext,
  request: FastifyRequest,
  customerId: string,
  slot: number,
  file: { name: string; bytes: Buffer },
  link: string,
) {
  if (!hasExtension(file.name, BANNER_TYPES)) throw new AppError('BAD_REQUEST', { reason: 'image type' });
  const png = await reencodeImage(file.bytes, ['jpeg', 'png', 'bmp'], { width: 1920, height: 300, fit: 'cover' });
  const imageKey = `banners/${customerId}/${uuidv7()}.png`;
  await ctx.storage.put(imageKey, Readable.from([png]), { maxBytes: LIMITS.bannerBytes * 4 });
  const current = await homeRow(ctx, customerId);
  const banners = [...current.banners];
  const previous = banners[slot]?.imageKey;
  banners[Math.min(slot, banners.length)] = { imageKey, link };
  await saveHome(ctx, request, customerId, { banners }, 'banner');
  if (previous) await ctx.storage.delete(previous);
}
