import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  importPKCS8,
  jwtVerify,
  SignJWT,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import type { Config } from '../../config.js';
import type { AppContext } from '../../platform/context.js';
import { verifyUrlOf } from './render.js';

/**
 * Open Badges 3.0: each certificate as an OpenBadgeCredential (a W3C Verifiable Credential) with a VC-JWT proof
 * (OB 3.0 §8.2) signed by the platform's Ed25519 key, whose public half is published as a JWKS.
 */

export const OB_CONTEXT = [
  'https://www.w3.org/ns/credentials/v2',
  'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
] as const;
export const CREDENTIAL_MEDIA_TYPE = 'application/vc+jwt';

interface SigningKey {
  privateKey: Awaited<ReturnType<typeof importPKCS8>>;
  publicJwk: JWK;
  kid: string;
}

const KEY_FILE = 'certificate-signing-key.pem';
const keys = new WeakMap<Config, Promise<SigningKey>>();

/** The configured PKCS #8 PEM, or the one generated once and kept in `DATA_DIR/secrets/` (mode 0600). */
function signingPem(config: Config): string {
  if (config.certificates.signingKeyPem) return config.certificates.signingKeyPem.replaceAll('\\n', '\n');
  const dir = path.join(config.dataDir, 'secrets');
  const file = path.join(dir, KEY_FILE);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    try {
      writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
      return pem;
    } catch {
      // Another process wrote it first: that one is the key.
      return readFileSync(file, 'utf8');
    }
  }
}

async function loadKey(config: Config): Promise<SigningKey> {
  const pem = signingPem(config);
  const { kty, crv, x } = createPublicKey(createPrivateKey(pem)).export({ format: 'jwk' }) as JWK;
  if (kty !== 'OKP' || crv !== 'Ed25519') throw new Error('The certificate signing key must be an Ed25519 key');
  const base = { kty, crv, x } as JWK;
  const kid = await calculateJwkThumbprint(base);
  return {
    privateKey: await importPKCS8(pem, 'EdDSA'),
    publicJwk: { ...base, kid, use: 'sig', alg: 'EdDSA' },
    kid,
  };
}

export function signingKey(config: Config): Promise<SigningKey> {
  let key = keys.get(config);
  if (!key) {
    key = loadKey(config);
    keys.set(config, key);
  }
  return key;
}

export async function jwks(config: Config): Promise<JSONWebKeySet> {
  return { keys: [(await signingKey(config)).publicJwk] };
}

export const issuerIdOf = (ctx: AppContext, customerId: string) =>
  `${ctx.config.publicUrl.replace(/\/+$/, '')}/issuers/${customerId}`;

export interface BadgeInput {
  id: string;
  userId: string;
  customerId: string;
  customerName: string;
  certificateId: string;
  certName: string;
  holderName: string;
  awardFor: string;
  number: string;
  issuedAt: Date;
}

export function credentialOf(ctx: AppContext, cert: BadgeInput) {
  return {
    '@context': [...OB_CONTEXT],
    id: `urn:uuid:${cert.id}`,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    issuer: { id: issuerIdOf(ctx, cert.customerId), type: ['Profile'], name: cert.customerName },
    validFrom: cert.issuedAt.toISOString(),
    name: cert.certName,
    credentialSubject: {
      id: `urn:uuid:${cert.userId}`,
      type: ['AchievementSubject'],
      name: cert.holderName,
      achievement: {
        id: `urn:uuid:${cert.certificateId}`,
        type: ['Achievement'],
        name: cert.certName,
        description: cert.awardFor,
        criteria: { narrative: cert.awardFor },
      },
    },
    credentialStatus: { id: verifyUrlOf(ctx, cert.number), type: 'CertificateVerificationPage' },
  };
}

/** The credential as a compact JWS (VC-JWT): the credential itself with `iss`, `jti`, `sub` and `nbf`. */
export async function signBadge(ctx: AppContext, cert: BadgeInput): Promise<string> {
  const key = await signingKey(ctx.config);
  const credential = credentialOf(ctx, cert);
  return new SignJWT(credential)
    .setProtectedHeader({ alg: 'EdDSA', typ: 'vc+jwt', kid: key.kid })
    .setIssuer(credential.issuer.id)
    .setJti(credential.id)
    .setSubject(credential.credentialSubject.id)
    .setNotBefore(Math.floor(cert.issuedAt.getTime() / 1000))
    .sign(key.privateKey);
}

/**
 * The certificate id a credential names when its proof verifies with the platform's keys and its claims agree with
 * its body; null for anything else (a changed byte, another key, a token that is no credential).
 */
export async function verifiedBadgeId(ctx: AppContext, token: string): Promise<{ id: string; issuer: string } | null> {
  try {
    const keySet = createLocalJWKSet(await jwks(ctx.config));
    const { payload } = await jwtVerify(token.trim(), keySet, { algorithms: ['EdDSA'], currentDate: ctx.now() });
    const types = payload.type;
    if (!Array.isArray(types) || !types.includes('OpenBadgeCredential')) return null;
    const issuer = (payload.issuer as { id?: unknown } | undefined)?.id;
    if (typeof payload.jti !== 'string' || payload.jti !== payload.id) return null;
    if (typeof issuer !== 'string' || payload.iss !== issuer) return null;
    const match = /^urn:uuid:([0-9a-f-]{36})$/i.exec(payload.jti);
    return match ? { id: match[1]!.toLowerCase(), issuer } : null;
  } catch {
    return null;
  }
}
