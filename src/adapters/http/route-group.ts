import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { markRoute } from './request-route';

export interface RouteDefinition {
  readonly method: 'get' | 'post' | 'patch' | 'delete';
  readonly path: string;
  readonly handlers: readonly RequestHandler[];
}

export interface RouteGroupOptions {
  /** Where the app mounts the router: with the route's path, it names the route in logs and metrics (request-route.ts). */
  readonly mountPath?: string;
  /**
   * Run inside each route, where req.params still holds the route's parameters (they are gone once
   * the error leaves the router); they observe an error and pass it on.
   */
  readonly onError?: readonly ErrorRequestHandler[];
}

/**
 * A group's guards (authentication for the protected group) are declared once, for the group, and
 * then prepended to each of its routes. They are deliberately not `router.use()` middleware: that
 * would run for every request entering the router, so GET /api/v1/auth/nope without credentials would
 * answer 401 instead of 404, and the group's reach would again depend on a URL prefix. Here a guard
 * runs only once a route of its own group has matched on method and path.
 */
export function routeGroup(guards: readonly RequestHandler[], routes: readonly RouteDefinition[], options: RouteGroupOptions = {}): Router {
  const { mountPath = '', onError = [] } = options;
  const router = Router();
  // The pattern is noted first, so that a request the guards refuse is still logged under its route.
  for (const route of routes) {
    router[route.method](route.path, markRoute(mountPath + route.path), ...guards, ...route.handlers, ...onError);
  }
  return router;
}
