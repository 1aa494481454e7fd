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
      REDIS_URL: 'redis://10.0.3.9:6379',
    });
    expect(config).toMatchObject({
      instanceUrl: 'http://10.0.3.7:8080',
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
