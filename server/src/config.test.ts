import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has defaults for a laptop start', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.seedDemo).toBe(true);
    expect(config.isCustomerSingle).toBe(false);
    expect(config.dataDir).toMatch(/data$/);
    expect(config.runtimeWarmPool).toEqual({ BASIC: 1, ADVANCED: 0, GPU: 0 });
    expect(config.instanceUrl).toBeUndefined();
    expect(config.s3).toBeUndefined();
    expect(config.scheduledBackups).toBeNull();
  });

  it('reads the metrics token, and never prints a wrong one', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'scrape-token-0123456789' }).metricsToken).toBe('scrape-token-0123456789');
    expect(() => loadConfig({ METRICS_TOKEN: 'short-one' })).toThrow(
      'Invalid environment variable METRICS_TOKEN=(hidden): expected at least 16 characters',
    );
  });

  it('reads the daily backups, and refuses a time of day that is none', () => {
    expect(loadConfig({ BACKUP_DIR: '/srv/backups' }).scheduledBackups).toEqual({
      dir: '/srv/backups',
      at: '02:00',
      keep: 7,
    });
    expect(loadConfig({ BACKUP_DIR: 'b', BACKUP_AT: '23:45', BACKUP_KEEP: '30' }).scheduledBackups).toMatchObject({
      at: '23:45',
      keep: 30,
    });
    expect(() => loadConfig({ BACKUP_DIR: 'b', BACKUP_AT: '24:00' })).toThrow(
      'Invalid environment variable BACKUP_AT="24:00": expected a time of day as HH:MM, e.g. 02:30',
    );
  });

  it('reads an S3 bucket, its service and its keys', () => {
    expect(
      loadConfig({
        S3_BUCKET: 'aiedu-files',
        S3_ENDPOINT: 'http://10.0.3.10:9000/',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: 'province/school-a/',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'key',
      }).s3,
    ).toEqual({
      bucket: 'aiedu-files',
      prefix: 'province/school-a/',
      endpoint: 'http://10.0.3.10:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'key' },
      directDownloads: false,
      publicEndpoint: undefined,
    });
    // Without keys the SDK's own chain (AWS_* variables, a profile, the machine's or the pod's role) answers.
    expect(loadConfig({ S3_BUCKET: 'aiedu-files', S3_REGION: 'cn-north-1' }).s3).toMatchObject({
      endpoint: undefined,
      region: 'cn-north-1',
      forcePathStyle: false,
      credentials: undefined,
    });
  });

  it('reads direct downloads from the bucket, at its public address, and refuses them without a bucket', () => {
    const env = { S3_BUCKET: 'aiedu-files', S3_ENDPOINT: 'http://minio.aiedu.svc:9000' };
    expect(loadConfig({ ...env, S3_DIRECT_DOWNLOADS: 'true' }).s3).toMatchObject({
      directDownloads: true,
      publicEndpoint: undefined,
    });
    expect(
      loadConfig({ ...env, S3_DIRECT_DOWNLOADS: 'true', S3_PUBLIC_ENDPOINT: 'https://files.school.example/' }).s3,
    ).toMatchObject({ endpoint: 'http://minio.aiedu.svc:9000', publicEndpoint: 'https://files.school.example' });
    expect(() => loadConfig({ S3_DIRECT_DOWNLOADS: 'true' })).toThrow(
      'Invalid environment variable S3_DIRECT_DOWNLOADS="true": used only with S3_BUCKET',
    );
    expect(() => loadConfig({ ...env, S3_PUBLIC_ENDPOINT: 'https://files.school.example' })).toThrow(
      'Invalid environment variable S3_PUBLIC_ENDPOINT="https://files.school.example": used only with S3_DIRECT_DOWNLOADS=true',
    );
    expect(() => loadConfig({ ...env, S3_DIRECT_DOWNLOADS: 'true', S3_PUBLIC_ENDPOINT: 'files.school' })).toThrow(
      /S3_PUBLIC_ENDPOINT="files\.school": expected the http\(s\) address browsers reach/,
    );
  });

  it('refuses one S3 key without the other, and never prints a secret', () => {
    expect(() => loadConfig({ S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'id' })).toThrow(
      'Invalid environment variable S3_SECRET_ACCESS_KEY=(hidden): S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together',
    );
    expect(() => loadConfig({ JWT_SECRET: 'too-short-to-sign' })).toThrow(/JWT_SECRET=\(hidden\)/);
    expect(() => loadConfig({ JWT_SECRET: 'too-short-to-sign' })).not.toThrow(/too-short-to-sign/);
  });

  it('reads the Kubernetes driver, and refuses it without an image or a workspace claim', () => {
    expect(loadConfig({}).kubernetes).toBeNull();
    const env = { RUNTIME_DRIVER: 'kubernetes', K8S_RUNTIME_IMAGE: 'registry.school/aiedu-runtime:1' };
    expect(
      loadConfig({ ...env, K8S_WORKSPACE_CLAIM: 'aiedu-workspaces', K8S_GPU_RESOURCE: 'none' }).kubernetes,
    ).toEqual({
      namespace: undefined,
      image: 'registry.school/aiedu-runtime:1',
      workspaceClaim: 'aiedu-workspaces',
      gpuResource: '',
      startTimeoutMs: 180_000,
    });
    expect(() => loadConfig(env)).toThrow(
      'Invalid environment variable K8S_WORKSPACE_CLAIM (unset): required with RUNTIME_DRIVER=kubernetes',
    );
    expect(() => loadConfig({ ...env, K8S_WORKSPACE_CLAIM: 'w', K8S_NAMESPACE: 'Not A Namespace' })).toThrow(
      /K8S_NAMESPACE="Not A Namespace": expected a namespace name/,
    );
  });

  it('reads the proxies to trust: true is one hop, never the whole chain', () => {
    const trust = (value?: string) => {
      const config = loadConfig(value === undefined ? {} : { TRUST_PROXY: value });
      return { trust: config.trustProxy, proxies: config.trustedProxies };
    };
    expect(trust()).toEqual({ trust: false, proxies: 1 });
    expect(trust('false')).toEqual({ trust: false, proxies: 1 });
    expect(trust('0')).toEqual({ trust: false, proxies: 1 });
    expect(trust('true')).toEqual({ trust: true, proxies: 1 });
    expect(trust('1')).toEqual({ trust: true, proxies: 1 });
    expect(trust('2')).toEqual({ trust: true, proxies: 2 });
    expect(trust('10.0.0.0/8, 192.0.2.7,loopback')).toEqual({
      trust: true,
      proxies: ['10.0.0.0/8', '192.0.2.7', 'loopback'],
    });
    expect(trust('fd00::/8')).toEqual({ trust: true, proxies: ['fd00::/8'] });
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(
      'Invalid environment variable TRUST_PROXY="yes": expected true, false, a number of proxies, or comma-separated proxy addresses or CIDR ranges',
    );
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY="10\.0\.0\.0\/99"/);
  });

  it('reads what runtimes may reach over the network, and refuses an allowance that is no address', () => {
    expect(loadConfig({}).runtimeNetwork).toEqual({ mode: 'internet', allow: [] });
    expect(
      loadConfig({ RUNTIME_NETWORK: 'none', RUNTIME_NETWORK_ALLOW: '10.0.0.5:3141, [fd00::5]' }).runtimeNetwork,
    ).toEqual({
      mode: 'none',
      allow: [
        { address: '10.0.0.5', port: 3141 },
        { address: 'fd00::5', port: null },
      ],
    });
    expect(() => loadConfig({ RUNTIME_NETWORK: 'open' })).toThrow(/RUNTIME_NETWORK/);
    expect(() => loadConfig({ RUNTIME_NETWORK_ALLOW: 'pypi.lan' })).toThrow(/RUNTIME_NETWORK_ALLOW/);
  });

  it('reads the warm pool as one count or per runtime type', () => {
    expect(loadConfig({ RUNTIME_WARM_POOL: '0' }).runtimeWarmPool).toEqual({ BASIC: 0, ADVANCED: 0, GPU: 0 });
    expect(loadConfig({ RUNTIME_WARM_POOL: '2' }).runtimeWarmPool).toEqual({ BASIC: 2, ADVANCED: 2, GPU: 2 });
    expect(loadConfig({ RUNTIME_WARM_POOL: 'basic=2, GPU=1' }).runtimeWarmPool).toEqual({
      BASIC: 2,
      ADVANCED: 0,
      GPU: 1,
    });
  });

  it('reads every kind of value', () => {
    const config = loadConfig({
      PORT: '9000',
      SEED_DEMO: 'false',
      IS_VERIFY_CODE: '1',
      DATABASE_URL: 'postgres://u@h:5432/db',
      SUPER_ADMIN_PASSWORD: 'Longenough1!',
      INSTANCE_URL: 'http://10.0.3.7:8080/',
      PUBLIC_URL: 'https://ai.school.edu/',
      REDIS_URL: 'redis://10.0.3.9:6379',
    });
    expect(config).toMatchObject({
      instanceUrl: 'http://10.0.3.7:8080',
      publicUrl: 'https://ai.school.edu',
      redisUrl: 'redis://10.0.3.9:6379',
      redisKeyPrefix: 'aiedu:',
      port: 9000,
      seedDemo: false,
      isVerifyCode: true,
      databaseUrl: 'postgres://u@h:5432/db',
      superAdminPassword: 'Longenough1!',
    });
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['SEED_DEMO', 'yes'],
    ['DATABASE_URL', 'mysql://x'],
    ['LOG_LEVEL', 'loud'],
    ['SUPER_ADMIN_PASSWORD', 'short'],
    ['RUNTIME_WARM_POOL', '-1'],
    ['RUNTIME_WARM_POOL', 'BASIC=2,TPU=1'],
    ['INSTANCE_URL', 'https://10.0.3.7:8443'],
    ['INSTANCE_URL', '10.0.3.7:8080'],
    ['REDIS_URL', 'http://10.0.3.9:6379'],
    ['PUBLIC_URL', 'ftp://ai.school.edu'],
    ['S3_BUCKET', 'Files_Bucket'],
    ['S3_ENDPOINT', 'minio:9000'],
    ['S3_PREFIX', 'school-a'],
    ['S3_PREFIX', '../up/'],
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain(`Invalid environment variable ${name}=`);
      expect(message).not.toContain('\n');
    }
  });
});
