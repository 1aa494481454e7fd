import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';

export interface RouteEntry {
  method: string;
  url: string;
  auth: 'required' | 'optional' | undefined;
  permission: string | undefined;
  /** The route's schemas (zod) of params, querystring and body: the input tests walk their fields. */
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with what it demands of the caller: the isolation and access tests walk it. */
    routeTable: RouteEntry[];
  }
}

/** Starts recording routes; call before any route is registered. */
export function recordRouteTable(app: FastifyInstance) {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = (route.config ?? {}) as { auth?: 'required' | 'optional'; permission?: string };
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      table.push({ method, url: route.url, auth: config.auth, permission: config.permission, schema: route.schema });
    }
  });
}
