import { chmodSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { loadOrCreateSecret } from '../../platform/secrets.js';
import { createKubernetesDriver } from './kubernetes-setup.js';
import { LocalRuntimeDriver } from './local-driver.js';
import type { RuntimeDriver } from './runtime-driver.js';
import { AI_SET, RuntimeAvailability } from './runtime-install.js';
import { RuntimeManager } from './runtime-manager.js';
import { ServerInstance } from '../../platform/server-instances.js';

/**
 * Runtimes run as other system users. They may pass through the data directory to their own project folder
 * (`DATA_DIR/runtime/<project>`), but the database, stored files and secrets beside it stay closed to them.
 */
function protectDataDir(dataDir: string) {
  if (process.getuid?.() !== 0) return;
  // Folders the server fills later are created closed now.
  for (const folder of ['files', 'project-versions']) mkdirSync(path.join(dataDir, folder), { recursive: true });
  chmodSync(dataDir, 0o711);
  for (const entry of readdirSync(dataDir)) {
    if (entry !== 'runtime') chmodSync(path.join(dataDir, entry), 0o700);
  }
}

/** The runtime manager of this process, with the driver named by `RUNTIME_DRIVER`. */
export async function createRuntimeManager(app: FastifyInstance, ctx: AppContext, driver?: RuntimeDriver) {
  const log = app.log;
  const rootDir = path.join(ctx.config.dataDir, 'runtime');
  const instance = new ServerInstance(ctx, loadOrCreateSecret(ctx.config.dataDir, 'jwt.key', ctx.config.jwtSecret));
  const kubernetes = ctx.config.kubernetes;
  const runtimeDriver: RuntimeDriver =
    driver ??
    (kubernetes
      ? createKubernetesDriver(kubernetes, {
          rootDir,
          uidBase: ctx.config.runtimeUidBase,
          limits: ctx.config.runtimeLimits,
          pipIndexUrl: ctx.config.pipIndexUrl,
          holder: instance.id,
          holderAlive: async (id) => (await instance.addressOf(id)) !== null,
          log,
        })
      : new LocalRuntimeDriver({
          rootDir,
          python: ctx.config.runtimePython,
          uidBase: ctx.config.runtimeUidBase,
          limits: ctx.config.runtimeLimits,
          maxProcesses: ctx.config.runtimeMaxProcesses,
          warmPool: ctx.config.runtimeWarmPool,
          pipIndexUrl: ctx.config.pipIndexUrl,
          network: ctx.config.runtimeNetwork,
          log,
        }));
  if (existsSync(ctx.config.dataDir)) protectDataDir(ctx.config.dataDir);
  // Pods run the runtime image, which has everything: nothing to probe or install on this machine.
  const availability = new RuntimeAvailability(
    kubernetes ? null : ctx.config.runtimePython,
    runtimeDriver.limitsMode,
    log,
  );
  // nftables may have come with the installation: runtimes are cut off from then on.
  availability.onReady(() => void runtimeDriver.isolate?.());
  const aiAvailability = kubernetes
    ? null
    : new RuntimeAvailability(ctx.config.runtimePython, runtimeDriver.limitsMode, log, AI_SET);
  const manager = new RuntimeManager(ctx, runtimeDriver, availability, instance, log, aiAvailability);
  await manager.open();
  app.addHook('onClose', () => manager.close());
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address && typeof address === 'object') await manager.listening(address.port);
  });
  // Once listening, so the probe (a second of Python imports) never delays the start.
  app.addHook('onReady', () => {
    setTimeout(() => manager.warm(), 0).unref();
  });
  return manager;
}
