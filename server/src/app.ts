import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API, SERVICE_PATHS } from '@aiedu/contracts';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino } from 'pino';
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { validatorCompiler } from './platform/validation-messages.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { ssoRoutes } from './modules/auth/sso.routes.js';
import { fileRoutes } from './modules/files/files.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { shieldRoutes } from './modules/system/shield.routes.js';
import { refreshShieldAllowlist } from './modules/system/shield.service.js';
import { startCleanup } from './modules/system/cleanup.service.js';
import { authoringRoutes } from './modules/course/authoring.routes.js';
import { catalogueRoutes } from './modules/course/catalogue.routes.js';
import { experimentRoutes } from './modules/course/experiment.routes.js';
import { checkRoutes } from './modules/course/check.routes.js';
import { CheckQueue } from './modules/course/check.service.js';
import { starterRoutes } from './modules/course/starter.routes.js';
import { seedStarterCourses, type StarterOwner } from './modules/course/starter.service.js';
import { randomCourseCode } from './modules/course/course-code.js';
import { coursePackageRoutes } from './modules/course/course-package.routes.js';
import { learningRoutes } from './modules/course/learning.routes.js';
import { scheduleRoutes } from './modules/schedule/schedule.routes.js';
import { registerClassroom } from './modules/classroom/classroom.routes.js';
import { scheduleTaskRoutes } from './modules/schedule/task.routes.js';
import { scheduleReportRoutes } from './modules/schedule/report.routes.js';
import { scheduleOversightRoutes } from './modules/schedule/oversight.routes.js';
import { uploadRoutes } from './modules/course/upload.routes.js';
import { adminUserRoutes } from './modules/institution/admin-user.routes.js';
import { registerCustomRoleGuard } from './modules/institution/custom-role-guard.js';
import { customRoleRoutes } from './modules/institution/custom-role.routes.js';
import { catalogRoutes } from './modules/institution/catalog.routes.js';
import { classRoutes } from './modules/institution/class.routes.js';
import { gradeRoutes } from './modules/institution/grades.routes.js';
import { homeRoutes } from './modules/institution/home.routes.js';
import { institutionRoutes } from './modules/institution/institution.routes.js';
import { registerModuleGuard } from './modules/institution/module-guard.js';
import { logRoutes } from './modules/institution/log.routes.js';
import { peopleRoutes } from './modules/institution/people.routes.js';
import { studentRoutes } from './modules/institution/student.routes.js';
import { teacherClassRoutes } from './modules/institution/teacher-class.routes.js';
import { organizationImportRoutes } from './modules/institution/organization-import.routes.js';
import { experimentAdminRoutes } from './modules/course/experiment-admin.routes.js';
import { periodRoutes } from './modules/institution/period.routes.js';
import { statisticsRoutes } from './modules/institution/statistics.routes.js';
import { systemConfigRoutes } from './modules/system/system-config.routes.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { registerProjectGuard } from './modules/project/project-access.js';
import { PackageQueue } from './modules/project/package.service.js';
import { projectRoutes } from './modules/project/project.routes.js';
import { certRoutes } from './modules/certificate/cert.routes.js';
import { issuanceRoutes } from './modules/certificate/issuance.routes.js';
import { verifyRoutes } from './modules/certificate/verify.routes.js';
import { eventRoutes } from './modules/event/event.routes.js';
import { registrationRoutes } from './modules/event/registration.routes.js';
import { reviewRoutes } from './modules/event/review.routes.js';
import { runRoutes } from './modules/event/run.routes.js';
import { RunQueue } from './modules/event/run.queue.js';
import { workRoutes } from './modules/event/work.routes.js';
import { attachmentRoutes } from './modules/dataset/attachment.routes.js';
import { datasetRoutes } from './modules/dataset/dataset.routes.js';
import { groupRoutes } from './modules/group/group.routes.js';
import { registerRuntimeUpgrades, runtimeProxyRoutes } from './modules/runtime/runtime-proxy.js';
import type { RuntimeDriver } from './modules/runtime/runtime-driver.js';
import { SessionEvents } from './platform/auth/session-events.js';
import { SessionCheck } from './platform/auth/session-check.js';
import { sessionRefusal } from './modules/auth/session.service.js';
import { runtimeRoutes } from './modules/runtime/runtime.routes.js';
import { createRuntimeManager } from './modules/runtime/runtime-setup.js';
import { MIGRATIONS_FOLDER } from './platform/db/migrations.js';
import { Metrics } from './platform/metrics.js';
import { BackupSchedule } from './modules/system/backup-schedule.js';
import { backupRoutes } from './modules/system/backup.routes.js';
import { diskRoutes } from './modules/system/disk.routes.js';
import { certificationRoutes } from './modules/user/certification.routes.js';
import { userRoutes } from './modules/user/user.routes.js';
import { messengersFromConfig, type Messenger } from './platform/messaging/messenger.js';
import { registerAuthGuard } from './platform/auth/auth-guard.js';
import { AccessTokens } from './platform/auth/tokens.js';
import type { AppContext } from './platform/context.js';
import type { Database } from './platform/db/client.js';
import { registerErrorHandling } from './platform/error-handler.js';
import { loadOrCreateSecret } from './platform/secrets.js';
import { recordRouteTable } from './platform/route-table.js';
import { registerSecurityHeaders } from './platform/security.js';
import { registerTextInputCheck } from './platform/text-input.js';
import { answerClientError, answerFrameworkError, registerDrainRefusal } from './platform/http-refusals.js';
import { RequestShield, registerShield } from './platform/shield.js';
import { RedisCluster } from './platform/cluster.js';
import { followCentreWrites } from './modules/course/centre-cache.js';
import { courseFrame } from './modules/course/course-frame.js';
import type { FileStorage } from './platform/storage/storage.js';
import { registerWebApp } from './platform/web-app.js';
import { registerQueryTrace } from './platform/db/query-trace.js';
import { keepCustomerTrees } from './platform/tenancy.js';

export interface AppDeps {
  config: Config;
  database: Database;
  storage: FileStorage;
  /** The clock; tests pass one they can move. */
  now?: () => Date;
  /** How codes and notices reach people; by default from configuration (SMTP, SMS over HTTP), else the outbox only. */
  messengers?: Messenger[];
  /** Pino logger options; tests pass `false`. */
  logger?: boolean | object;
  /** Where notebooks run; by default the driver named by `RUNTIME_DRIVER`. */
  runtimeDriver?: RuntimeDriver;
  /** The source of new course codes; tests pass one that collides. */
  courseCode?: () => string;
}

/**
 * Whom the client's address is taken from in `X-Forwarded-For`: never the whole chain, whose left-most entries the
 * client writes itself, only the entries the trusted proxies added. A count trusts that many hops nearest the server
 * (Fastify takes no bare number, since a client that reaches the server directly could then forge the header: the
 * server must be reachable only through its proxies); addresses and ranges trust the proxies that have them.
 */
function proxyTrust(config: Config) {
  if (!config.trustProxy) return false;
  const trusted = config.trustedProxies;
  return typeof trusted === 'number' ? (_address: string, hop: number) => hop < trusted : trusted;
}

/**
 * One log line a request, written when it is answered, with the request and the answer, instead of one line when it
 * comes and another when it goes: half the logging cost of every request at the default level.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * Standard output, written asynchronously: a line waits while the previous write is in flight and goes with the next
 * one, so under load many lines leave in one system call instead of one each (at idle, each line leaves at once).
 * pino flushes what is left when the process exits.
 */
function logDestination() {
  return pino.destination({ dest: 1, sync: false });
}

/** The built web app, next to the server package in the repository. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

export async function buildApp({
  config,
  database,
  storage,
  messengers,
  logger,
  runtimeDriver,
  now = () => new Date(),
  courseCode = randomCourseCode,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel, stream: logDestination() },
    logController: new OneLinePerRequest(),
    bodyLimit: config.bodyLimitBytes,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    return503OnClosing: false,
    trustProxy: proxyTrust(config),
  }).withTypeProvider<ZodTypeProvider>();
  const tokens = new AccessTokens(
    loadOrCreateSecret(config.dataDir, 'jwt.key', config.jwtSecret),
    config.accessTokenTtlSeconds,
    now,
  );
  // The other processes of the deployment, when they share a Redis: shield counts and blocks, ended sign-ins.
  const cluster = config.redisUrl ? await RedisCluster.connect(config.redisUrl, config.redisKeyPrefix) : null;
  if (cluster) app.addHook('onClose', () => cluster.close());
  const shield = new RequestShield(
    {
      limits: {
        loginFailure: config.shieldLoginFailuresPerHour,
        codeRequest: config.shieldCodeRequestsPerHour,
        captchaRequest: config.shieldCaptchaRequestsPerHour,
      },
      blockMs: config.shieldBlockMinutes * 60_000,
      now,
    },
    cluster,
  );
  await shield.load();
  const ctx: AppContext = {
    config,
    db: database.db,
    tokens,
    storage,
    shield,
    now,
    courseCode,
    sessions: new SessionEvents(cluster),
    cluster,
  };
  await refreshShieldAllowlist(ctx);
  followCentreWrites(ctx);
  keepCustomerTrees(ctx);
  const stopCleanup = startCleanup(ctx, app.log);
  app.addHook('onClose', async () => stopCleanup());

  if (config.sqlTraceFile) registerQueryTrace(app, config.sqlTraceFile);
  recordRouteTable(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerSecurityHeaders(app, await storage.directOrigin());
  registerDrainRefusal(app);
  registerShield(app, shield);
  registerErrorHandling(app);
  registerTextInputCheck(app);
  const metrics = config.metricsToken ? new Metrics() : null;
  metrics?.observe(app);
  registerAuthGuard(app, tokens, new SessionCheck((auth) => sessionRefusal(database.db, auth), ctx.sessions, now));
  registerModuleGuard(app, ctx);
  registerCustomRoleGuard(app, ctx);
  registerProjectGuard(app, database.db);

  // Cookies are read only where a route asks (the token refresh), not parsed for every request.
  await app.register(cookie, { hook: false });
  await app.register(multipart, { limits: { files: 1, fields: 20, parts: 25 } });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'AI Education Platform API',
        version: '1.0.0',
        description:
          'Every JSON answer is the envelope { errorCode, errorMsg, data }; errorCode "1000" is success. ' +
          'Send the `language` header (en, zh_CHS, zh_CHT, ja) and the access token in `X-Authorization`.',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: SERVICE_PATHS.apiDocs });
  app.get(API.openapi, { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes, { database });
  await app.register(systemRoutes, { ctx });
  await app.register(systemConfigRoutes, { ctx });
  await app.register(fileRoutes, { storage });
  await app.register(authRoutes, { ctx });
  await app.register(ssoRoutes, { ctx });
  await app.register(shieldRoutes, { ctx });
  await app.register(certificationRoutes, { ctx });
  await app.register(gradeRoutes, { ctx });
  await app.register(institutionRoutes, { ctx });
  await app.register(logRoutes, { ctx });
  await app.register(classRoutes, { ctx });
  await app.register(peopleRoutes, { ctx });
  await app.register(studentRoutes, { ctx });
  await app.register(teacherClassRoutes, { ctx });
  await app.register(organizationImportRoutes, { ctx });
  await app.register(experimentAdminRoutes, { ctx });
  await app.register(statisticsRoutes, { ctx });
  await app.register(homeRoutes, { ctx });
  await app.register(periodRoutes, { ctx });
  await app.register(catalogRoutes, { ctx });
  await app.register(adminUserRoutes, { ctx });
  await app.register(customRoleRoutes, { ctx });
  await app.register(userRoutes, { ctx, messengers: messengers ?? messengersFromConfig(config) });
  await app.register(catalogueRoutes, { ctx });
  await app.register(coursePackageRoutes, { ctx });
  await app.register(authoringRoutes, { ctx });
  await app.register(learningRoutes, { ctx });
  await app.register(scheduleRoutes, { ctx });
  await registerClassroom(app, ctx);
  await app.register(scheduleTaskRoutes, { ctx });
  await app.register(scheduleReportRoutes, { ctx });
  await app.register(scheduleOversightRoutes, { ctx });
  const runtimes = await createRuntimeManager(app, ctx, runtimeDriver);
  await app.register(uploadRoutes, { ctx, instance: runtimes.instance });
  app.decorate('runtimes', runtimes);
  app.decorate('packages', new PackageQueue(ctx, runtimes.driver, runtimes.instance, runtimes.disk));
  await app.register(projectRoutes, { ctx, manager: runtimes });
  await app.register(groupRoutes, { ctx });
  await app.register(datasetRoutes, { ctx, manager: runtimes });
  await app.register(attachmentRoutes, { ctx, manager: runtimes });
  await app.register(certRoutes, { ctx });
  await app.register(issuanceRoutes, { ctx });
  await app.register(verifyRoutes, { ctx });
  await app.register(eventRoutes, { ctx });
  await app.register(registrationRoutes, { ctx });
  await app.register(workRoutes, { ctx });
  await app.register(reviewRoutes, { ctx });
  app.decorate('eventRuns', new RunQueue(ctx, runtimes));
  app.addHook('onReady', () => app.eventRuns.open()).addHook('onClose', () => app.eventRuns.close());
  await app.register(runRoutes, { ctx, manager: runtimes });
  await app.register(experimentRoutes, { ctx, driver: runtimes.driver });
  const checks = new CheckQueue(ctx, runtimes);
  app.decorate('checks', checks);
  app.addHook('onClose', () => checks.drain());
  await app.register(checkRoutes, { ctx, queue: checks });
  await app.register(starterRoutes, { ctx, driver: runtimes.driver });
  app.decorate('seedStarterCourses', (owners: StarterOwner[]) => seedStarterCourses(ctx, runtimes.driver, owners));
  const sockets = registerRuntimeUpgrades(app, ctx, runtimes, tokens);
  await app.register(runtimeRoutes, { ctx, manager: runtimes, sockets });
  await app.register(runtimeProxyRoutes, { ctx, manager: runtimes });
  await app.register(backupRoutes, { ctx, driver: runtimes.driver });
  await app.register(diskRoutes, { ctx });
  if (config.scheduledBackups) {
    const schedule = new BackupSchedule(
      ctx,
      config.scheduledBackups,
      { dataDir: config.dataDir, folders: runtimes.driver, migrationsFolder: MIGRATIONS_FOLDER },
      runtimes.instance.id,
      app.log,
    );
    app.decorate('backups', schedule);
    app.addHook('onReady', async () => schedule.start());
    app.addHook('onClose', () => schedule.close());
  }

  if (metrics) {
    metrics.serve(app, config.metricsToken!, {
      db: database.db,
      runtimes,
      pool: database.poolStats ? () => database.poolStats!() : undefined,
    });
  }

  await registerWebApp(app, config.webDist ?? DEFAULT_WEB_DIST, { course: courseFrame(app, ctx) });
  return app;
}
