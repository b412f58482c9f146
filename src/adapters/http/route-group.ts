import { Router, type RequestHandler } from 'express';

export interface RouteDefinition {
  readonly method: 'get' | 'post' | 'patch' | 'delete';
  readonly path: string;
  readonly handlers: readonly RequestHandler[];
}

/**
 * A group's guards (authentication for the protected group) are declared once, for the group, and
 * then prepended to each of its routes. They are deliberately not `router.use()` middleware: that
 * would run for every request entering the router, so GET /api/v1/auth/nope without credentials would
 * answer 401 instead of 404, and the group's reach would again depend on a URL prefix. Here a guard
 * runs only once a route of its own group has matched on method and path.
 */
export function routeGroup(guards: readonly RequestHandler[], routes: readonly RouteDefinition[]): Router {
  const router = Router();
  for (const route of routes) router[route.method](route.path, ...guards, ...route.handlers);
  return router;
}
