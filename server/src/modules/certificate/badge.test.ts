import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { calculateJwkThumbprint } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { jwks } from './badge.js';

describe('the certificate signing key', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cert-key-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is generated once in DATA_DIR/secrets (mode 0600) and read again by a later process', async () => {
    const first = await jwks(loadConfig({ DATA_DIR: dataDir }));
    const file = path.join(dataDir, 'secrets', 'certificate-signing-key.pem');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await jwks(loadConfig({ DATA_DIR: dataDir }));
    expect(again.keys[0]!.kid).toBe(first.keys[0]!.kid);
    const { kid, ...jwk } = first.keys[0]!;
    expect(kid).toBe(await calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x }));
  });

  it('is the configured PKCS #8 key when one is set', async () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const config = loadConfig({ DATA_DIR: dataDir });
    const configured = await jwks({ ...config, certificates: { ...config.certificates, signingKeyPem: pem } });
    const generated = await jwks(config);
    expect(configured.keys[0]!.kid).not.toBe(generated.keys[0]!.kid);
    expect(configured.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', use: 'sig', alg: 'EdDSA' });
  });
});
