import { Readable } from 'node:stream';
import {
  CERT_API,
  CERT_LIMITS,
  type Language,
  type TCert,
  type TCertDesign,
  type TCertDetail,
  type TCertListQuery,
  type TCertPic,
  type ZCertPreviewRequest,
  type ZCreateCertRequest,
} from '@aiedu/contracts';
import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import sharp, { type OutputInfo } from 'sharp';
import type { z } from 'zod';
import { v7 as uuidv7 } from 'uuid';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { certificates, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { MAX_IMAGE_PIXELS, sniffImage } from '../../platform/images.js';
import { certImagePrefix, isCustomerImageKey } from './cert-images.js';
import { customerInfo, customerOf } from './cert-access.js';
import { certOptions, findCert, imageInUse, listCerts, type CertRow } from './cert.repository.js';
import { peekNextNumber, todayIn } from './numbering.js';
import { renderCertificatePdf, verifyUrlOf } from './render.js';

/**
 * Certificate templates: a customer's managers design them (`certificate.manage`), its issuers pick from them
 * (`certificate.issue`). A template of another customer is answered 4005 as if it did not exist. Super
 * administrators (no customer) read every customer's templates but create or change none.
 */

/** How long the image addresses in answers stay valid. */
const PIC_URL_SECONDS = 86_400;
/** Uploaded images are kept at most this many pixels wide or high: twice the page, sharp in print. */
const PIC_MAX_SIDE = 1860;

/** An address the browser may show an image from (`<img src>`): the certPic route with a signed query. */
export function certPicUrl(ctx: AppContext, key: string | null): string | null {
  if (!key) return null;
  const signed = new URL(ctx.storage.signedUrl(key, { expiresInSeconds: PIC_URL_SECONDS }), 'http://x');
  const query = new URLSearchParams({
    key,
    expires: signed.searchParams.get('expires') ?? '',
    sig: signed.searchParams.get('sig') ?? '',
  });
  return `${CERT_API.certPic}?${query.toString()}`;
}

export function toCert(ctx: AppContext, row: CertRow): TCert {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    remark: row.remark,
    layout: row.layout,
    creatorId: row.creatorId,
    creatorName: row.creatorName,
    numberRule: { prefix: row.numberPrefix, digits: row.numberDigits },
    backgroundUrl: certPicUrl(ctx, row.design.backgroundKey),
    issuedCount: row.issuedCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const toDetail = (ctx: AppContext, row: CertRow): TCertDetail => ({
  ...toCert(ctx, row),
  design: row.design,
  sealUrl: certPicUrl(ctx, row.design.sealKey),
});

/** A template the caller may read: their customer's (any customer's for super administrators), else 4005. */
async function readable(ctx: AppContext, auth: AuthContext, certId: string): Promise<CertRow> {
  const row = await findCert(ctx.db, certId);
  if (!row || (auth.customerId !== null && row.customerId !== auth.customerId)) {
    throw new AppError('CERTIFICATE_NOT_FOUND');
  }
  return row;
}

/** A template the caller may change: their own customer's only. */
async function writable(ctx: AppContext, auth: AuthContext, certId: string): Promise<CertRow> {
  const customerId = customerOf(auth);
  const row = await findCert(ctx.db, certId);
  if (!row || row.customerId !== customerId) throw new AppError('CERTIFICATE_NOT_FOUND');
  return row;
}

/** The images a saved design names must be the customer's own uploads. */
function assertOwnImages(customerId: string, design: TCertDesign) {
  for (const key of [design.backgroundKey, design.sealKey]) {
    if (key !== null && !isCustomerImageKey(customerId, key)) {
      throw new AppError('BAD_REQUEST', { reason: 'image key' });
    }
  }
}

export async function listTemplates(
  ctx: AppContext,
  auth: AuthContext,
  query: TCertListQuery & { page: number; size: number },
) {
  const { rows, total } = await listCerts(ctx.db, { ...query, customerId: auth.customerId });
  return { list: rows.map((row) => toCert(ctx, row)), total, page: query.page, size: query.size };
}

export async function templateOptions(ctx: AppContext, auth: AuthContext): Promise<TCert[]> {
  return (await certOptions(ctx.db, auth.customerId)).map((row) => toCert(ctx, row));
}

export async function templateDetail(ctx: AppContext, auth: AuthContext, certId: string) {
  return toDetail(ctx, await readable(ctx, auth, certId));
}

type CertFields = z.output<typeof ZCreateCertRequest>;

const columnsOf = (body: CertFields) => ({
  name: body.name,
  type: body.type,
  remark: body.remark,
  layout: body.design.layout,
  design: body.design,
  numberPrefix: body.numberRule.prefix.toUpperCase(),
  numberDigits: body.numberRule.digits,
});

export async function createTemplate(ctx: AppContext, request: FastifyRequest, auth: AuthContext, body: CertFields) {
  const customerId = customerOf(auth);
  assertOwnImages(customerId, body.design);
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(certificates)
      .values({ ...columnsOf(body), customerId, creatorId: auth.userId })
      .returning({ id: certificates.id });
    await writeAudit(tx as unknown as Db, request, {
      module: 'certificate',
      operation: 'create',
      params: { id: row!.id, name: body.name },
    });
    return row!.id;
  });
  return templateDetail(ctx, auth, id);
}

export async function updateTemplate(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  body: CertFields & { id: string },
) {
  const row = await writable(ctx, auth, body.id);
  assertOwnImages(row.customerId, body.design);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(certificates)
      .set({ ...columnsOf(body), updatedAt: ctx.now() })
      .where(eq(certificates.id, row.id));
    await writeAudit(tx as unknown as Db, request, {
      module: 'certificate',
      operation: 'update',
      params: { id: row.id, name: body.name },
    });
  });
  return templateDetail(ctx, auth, row.id);
}

/** Hides a template from lists and new issuances; certificates issued from it keep their own frozen design. */
export async function deleteTemplate(ctx: AppContext, request: FastifyRequest, auth: AuthContext, certId: string) {
  const row = await writable(ctx, auth, certId);
  await ctx.db.transaction(async (tx) => {
    await tx.update(certificates).set({ deletedAt: ctx.now() }).where(eq(certificates.id, row.id));
    await writeAudit(tx as unknown as Db, request, {
      module: 'certificate',
      operation: 'delete',
      params: { id: row.id, name: row.name },
    });
  });
}

/** The storage key an `originUrl` names: a key itself, or an address with `?key=`. */
function keyOf(origin: string | undefined): string | null {
  if (!origin) return null;
  if (!origin.includes('?')) return origin;
  return new URL(origin, 'http://x').searchParams.get('key');
}

/**
 * Stores a background or seal (JPG or PNG by its bytes, at most 5 MB), re-encoded in its own format (nothing
 * hidden in the file survives) and at most 1860 px a side. The image it replaces is deleted when it is the
 * customer's and nothing draws it any more.
 */
export async function uploadPic(
  ctx: AppContext,
  auth: AuthContext,
  bytes: Buffer,
  originUrl?: string,
): Promise<TCertPic> {
  const customerId = customerOf(auth);
  if (bytes.length > CERT_LIMITS.imageBytes) throw new AppError('FILE_TOO_LARGE');
  const kind = sniffImage(bytes);
  if (kind !== 'jpeg' && kind !== 'png') throw new AppError('BAD_REQUEST', { reason: 'image type' });
  let image: { data: Buffer; info: OutputInfo };
  try {
    const pipeline = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate()
      .resize(PIC_MAX_SIDE, PIC_MAX_SIDE, { fit: 'inside', withoutEnlargement: true });
    image = await (kind === 'jpeg' ? pipeline.jpeg({ quality: 90 }) : pipeline.png()).toBuffer({
      resolveWithObject: true,
    });
  } catch {
    throw new AppError('BAD_REQUEST', { reason: 'unreadable image' });
  }
  const key = `${certImagePrefix(customerId)}${uuidv7()}.${kind === 'jpeg' ? 'jpg' : 'png'}`;
  await ctx.storage.put(key, Readable.from([image.data]), { maxBytes: CERT_LIMITS.imageBytes * 4 });
  const origin = keyOf(originUrl);
  if (origin && isCustomerImageKey(customerId, origin) && !(await imageInUse(ctx.db, customerId, origin))) {
    await ctx.storage.delete(origin).catch(() => undefined);
  }
  return { key, url: certPicUrl(ctx, key)!, width: image.info.width, height: image.info.height };
}

/**
 * The key of an image the caller may see: through the signed address of an answer, or signed in with the key of
 * their customer (any customer's for super administrators). Anything else is "certificate not found".
 */
export function picKeyFor(
  ctx: AppContext,
  auth: AuthContext | undefined,
  query: { key: string; expires?: string | undefined; sig?: string | undefined },
): string {
  if (query.expires && query.sig) {
    const key = ctx.storage.verifySignedUrl({ key: query.key, expires: query.expires, sig: query.sig });
    if (key && key.startsWith('certificates/')) return key;
  } else if (auth) {
    const customerId = auth.customerId ?? query.key.split('/')[1] ?? '';
    if (isCustomerImageKey(customerId, query.key)) return query.key;
  }
  throw new AppError('CERTIFICATE_NOT_FOUND');
}

/** What the preview's content says the certificate is for when the designer gives nothing. */
const SAMPLE_AWARD: Record<Language, string> = {
  en: 'AI Programming Course',
  zh_CHS: '人工智能编程课程',
  zh_CHT: '人工智慧程式設計課程',
  ja: 'AIプログラミング講座',
};

/** The customer's name and time zone; super administrators preview with none and UTC. */
async function issuerOf(ctx: AppContext, auth: AuthContext) {
  if (!auth.customerId) return { name: '', timeZone: 'UTC' };
  return customerInfo(ctx.db, auth.customerId);
}

/** Today's next number of a rule, as the customer's clock reads the date (nothing handed out). */
export async function nextNumber(ctx: AppContext, auth: AuthContext, rule: { prefix: string; digits: number }) {
  const { timeZone } = await issuerOf(ctx, auth);
  return { number: await peekNextNumber(ctx.db, rule, todayIn(timeZone, ctx.now())) };
}

/**
 * A design drawn as an issued certificate would be, with sample values: the holder given or the caller's name,
 * the rule's next number, today's date in the customer's time zone and the customer's name. Images that are not
 * the caller's customer's are left out.
 */
export async function previewPdf(ctx: AppContext, auth: AuthContext, body: z.output<typeof ZCertPreviewRequest>) {
  const issuer = await issuerOf(ctx, auth);
  const own = (key: string | null) =>
    key !== null && isCustomerImageKey(auth.customerId ?? key.split('/')[1] ?? '', key) ? key : null;
  const design = { ...body.design, backgroundKey: own(body.design.backgroundKey), sealKey: own(body.design.sealKey) };
  const [caller] = await ctx.db
    .select({ realName: users.realName, username: users.username })
    .from(users)
    .where(eq(users.id, auth.userId));
  const issueDate = todayIn(issuer.timeZone, ctx.now());
  const rule = body.numberRule ?? { prefix: '', digits: 4 };
  const number = await peekNextNumber(ctx.db, rule, issueDate);
  return renderCertificatePdf(ctx, design, {
    holderName: body.holderName?.trim() || caller?.realName || caller?.username || '',
    awardFor: body.awardFor?.trim() || SAMPLE_AWARD[design.language],
    number,
    issueDate,
    issuerName: issuer.name,
    verifyUrl: verifyUrlOf(ctx, number),
  });
}
