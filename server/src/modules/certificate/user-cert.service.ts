import type { TCertVerification, TReissueRequest, TUserCert, ZUserCertListQuery } from '@aiedu/contracts';
import type { z } from 'zod';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { certificates, userCertificates } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { signBadge, verifiedBadgeId } from './badge.js';
import { certReach, customerInfo, reaches, reachWhere } from './cert-access.js';
import { findByNumber, findUserCert, pageOfUserCerts, userCertsOf, userCertView } from './issuance.repository.js';
import { valuesOf } from './issuance.service.js';
import { allocateNumbers, todayIn } from './numbering.js';
import { pdfToPng } from './render-png.js';
import { renderCertificatePdf } from './render.js';

/** Issued certificates: the managers' and issuers' list, the holder's own, revocation, correction and the files. */

export async function listUserCerts(ctx: AppContext, auth: AuthContext, query: z.infer<typeof ZUserCertListQuery>) {
  const reach = await certReach(ctx.db, auth);
  return pageOfUserCerts(ctx.db, and(eq(userCertificates.customerId, reach.customerId), reachWhere(reach))!, query);
}

export function myCerts(ctx: AppContext, auth: AuthContext): Promise<TUserCert[]> {
  return userCertsOf(ctx.db, and(eq(userCertificates.userId, auth.userId), isNotNull(userCertificates.number))!);
}

/**
 * A numbered certificate the caller may act on: its issuer or a manager of its customer (`holder`: its holder
 * too); anyone else gets 4005, as for a number that does not exist.
 */
async function reachedCert(db: Db, auth: AuthContext, id: string, holder: boolean) {
  const found = await findUserCert(db, id);
  const allowed =
    found?.cert.number &&
    (reaches(await certReach(db, auth), { customerId: found.cert.customerId, ...found.issuance }) ||
      (holder && found.cert.userId === auth.userId));
  if (!allowed) throw new AppError('CERTIFICATE_NOT_FOUND');
  return found.cert;
}

export async function revokeCert(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  id: string,
  reason: string,
) {
  const cert = await reachedCert(ctx.db, auth, id, false);
  await ctx.db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(userCertificates)
      .set({ state: 'revoked', revokedAt: ctx.now(), revokeReason: reason, revokedBy: auth.userId })
      .where(and(eq(userCertificates.id, cert.id), eq(userCertificates.state, 'valid')))
      .returning({ id: userCertificates.id });
    if (!revoked) throw new AppError('CERT_ALREADY_REVOKED');
    await writeAudit(tx as unknown as Db, request, {
      module: 'certificate',
      operation: 'revoke',
      params: { id, number: cert.number, reason },
    });
  });
  return userCertView(ctx.db, id);
}

/**
 * Replaces a certificate after a correction: the old one revoked with the reason (if it was still valid), a new one
 * with the corrected name or achievement and a new number of today's date, in one transaction.
 */
export async function reissueCert(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  id: string,
  input: TReissueRequest,
) {
  const old = await reachedCert(ctx.db, auth, id, false);
  if (old.replacedById) throw new AppError('CERT_ALREADY_REVOKED');
  const [template] = await ctx.db.select().from(certificates).where(eq(certificates.id, old.certificateId));
  const customer = await customerInfo(ctx.db, old.customerId);
  const now = ctx.now();
  const newId = await ctx.db.transaction(async (tx) => {
    const [number] = await allocateNumbers(
      tx as unknown as Db,
      { prefix: template!.numberPrefix, digits: template!.numberDigits },
      todayIn(customer.timeZone, now),
      1,
    );
    const [created] = await tx
      .insert(userCertificates)
      .values({
        issuanceId: old.issuanceId,
        certificateId: old.certificateId,
        customerId: old.customerId,
        userId: old.userId,
        holderName: input.holderName ?? old.holderName,
        awardFor: input.awardFor ?? old.awardFor,
        number,
        design: old.design,
        issuedAt: now,
      })
      .returning({ id: userCertificates.id });
    const [replaced] = await tx
      .update(userCertificates)
      .set({
        state: 'revoked',
        revokedAt: old.state === 'valid' ? now : old.revokedAt,
        revokeReason: old.state === 'valid' ? input.reason : old.revokeReason,
        revokedBy: old.state === 'valid' ? auth.userId : old.revokedBy,
        replacedById: created!.id,
      })
      .where(and(eq(userCertificates.id, old.id), isNull(userCertificates.replacedById)))
      .returning({ id: userCertificates.id });
    if (!replaced) throw new AppError('CERT_ALREADY_REVOKED');
    await writeAudit(tx as unknown as Db, request, {
      module: 'certificate',
      operation: 'reissue',
      params: { id, number: old.number, newNumber: number, ...input },
    });
    return created!.id;
  });
  return userCertView(ctx.db, newId);
}

export async function certPdf(ctx: AppContext, auth: AuthContext, id: string) {
  const cert = await reachedCert(ctx.db, auth, id, true);
  const customer = await customerInfo(ctx.db, cert.customerId);
  const pdf = await renderCertificatePdf(ctx, cert.design!, valuesOf(ctx, cert, customer.name));
  return { pdf, number: cert.number! };
}

/** The certificate as a PNG `width` pixels wide, drawn from the same PDF the holder downloads. */
export async function certPng(ctx: AppContext, auth: AuthContext, id: string, width: number) {
  const { pdf, number } = await certPdf(ctx, auth, id);
  return { png: await pdfToPng(pdf, width), number };
}

export async function certBadge(ctx: AppContext, auth: AuthContext, id: string) {
  const cert = await reachedCert(ctx.db, auth, id, true);
  const [customer, [template]] = await Promise.all([
    customerInfo(ctx.db, cert.customerId),
    ctx.db.select({ name: certificates.name }).from(certificates).where(eq(certificates.id, cert.certificateId)),
  ]);
  const jwt = await signBadge(ctx, {
    id: cert.id,
    userId: cert.userId,
    customerId: cert.customerId,
    customerName: customer.name,
    certificateId: cert.certificateId,
    certName: template!.name,
    holderName: cert.holderName,
    awardFor: cert.awardFor,
    number: cert.number!,
    issuedAt: cert.issuedAt ?? ctx.now(),
  });
  return { jwt, number: cert.number! };
}

const verificationOf = (cert: TUserCert): TCertVerification => ({
  number: cert.number!,
  state: cert.state,
  holderName: cert.holderName,
  certName: cert.certName,
  awardFor: cert.awardFor,
  issuerName: cert.issuerName,
  issuedAt: cert.issuedAt!,
  revokedAt: cert.revokedAt,
  revokeReason: cert.revokeReason,
});

/** What anyone learns from a number: the certificate's state, or 4005. */
export async function verifyNumber(ctx: AppContext, number: string): Promise<TCertVerification> {
  const cert = await findByNumber(ctx.db, number.trim().toUpperCase());
  if (!cert || !cert.issuedAt) throw new AppError('CERTIFICATE_NOT_FOUND');
  return verificationOf(cert);
}

/** A credential file's check: genuine when its proof holds and it names a certificate issued here, with its state now. */
export async function verifyCredential(ctx: AppContext, credential: string) {
  const named = await verifiedBadgeId(ctx, credential);
  if (!named) return { genuine: false, certificate: null };
  const found = await findUserCert(ctx.db, named.id);
  if (!found?.cert.number) return { genuine: false, certificate: null };
  return { genuine: true, certificate: verificationOf(await userCertView(ctx.db, named.id)) };
}
