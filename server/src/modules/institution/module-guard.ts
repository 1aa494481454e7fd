import { API, COURSE_API, EVENT_API, SCHEDULE_API, type MODULES } from '@aiedu/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { keptEffectiveModules, sideOf } from './home.service.js';

type Module = (typeof MODULES)[number];

/**
 * The API of each module a customer can switch off for a side: every route under one of these paths belongs to
 * that module, so a route added there is guarded without saying so. Modules without routes yet have none.
 */
const MODULE_PATHS: readonly (readonly [string, Module])[] = [
  [COURSE_API.base, 'courses'],
  // Teaching schedules teach courses: they go with them.
  [SCHEDULE_API.base, 'courses'],
  [API.projects, 'projects'],
  [API.runtimeProxy, 'projects'],
  [EVENT_API.events, 'events'],
];

/** The module a route (its URL template) belongs to, if any. */
export function moduleOfRoute(url: string): Module | undefined {
  return MODULE_PATHS.find(([path]) => url === path || url.startsWith(`${path}/`))?.[1];
}

/**
 * Every route of a module refuses a caller whose customer switched that module off for the caller's side
 * (`1008`), as the web app hides its pages: the switch holds for the API, not only for the browser. Visitors,
 * the public space and super administrators belong to no customer and keep every module.
 */
export function registerModuleGuard(app: FastifyInstance, ctx: AppContext) {
  app.addHook('onRequest', async (request) => {
    const module = moduleOfRoute(request.routeOptions.url ?? '');
    const customerId = request.auth?.customerId;
    if (!module || !customerId) return;
    const modules = await keptEffectiveModules(ctx, customerId);
    if (!modules[sideOf(request.auth!)].includes(module)) throw new AppError('NO_PERMISSION_VISIT');
  });
}
