import type { IRouter, RequestHandler } from 'express';
import type { DirectRoutes } from '../fast-path/direct-routes';
import type { NodeErrorHandler, NodeHandler } from '../fast-path/node-handler';
import { markRoute } from './request-route';

export type RouteDefinition =
  | {
    readonly method: 'get' | 'post' | 'patch' | 'delete';
    readonly path: string;
    readonly handlers: readonly RequestHandler[];
    readonly direct?: false;
  }
  | {
    readonly method: 'get';
    readonly path: string;
    /** NodeHandlers only: the route is also served without Express (direct-routes.ts). */
    readonly handlers: readonly NodeHandler[];
    readonly direct: true;
  };

export interface RouteGroupOptions {
  /** The prefix of the group's paths: with the route's path, it names the route in logs and metrics (request-route.ts). */
  readonly mountPath?: string;
  /**
   * Run inside each route, where req.params still holds the route's parameters (they are gone once
   * the error leaves the router); they observe an error and pass it on.
   */
  readonly onError?: readonly NodeErrorHandler[];
  /** Where the group's direct routes are also registered; without it they are ordinary routes. */
  readonly direct?: DirectRoutes | undefined;
}

/**
 * A group's guards (authentication for the protected group) are declared once, for the group, and
 * then prepended to each of its routes. They are deliberately not `router.use()` middleware: that
 * would run for every request entering the router, so GET /api/v1/auth/nope without credentials would
 * answer 401 instead of 404, and the group's reach would again depend on a URL prefix. Here a guard
 * runs only once a route of its own group has matched on method and path.
 *
 * The routes go straight onto the given router (the app), under their full paths, rather than into
 * a router of their own mounted at the prefix: a nested router costs every request that passes
 * through it (prefix stripped and restored, its own stack walked) and changes nothing a caller sees.
 */
export function addRouteGroup(target: IRouter, guards: readonly NodeHandler[], routes: readonly RouteDefinition[], options: RouteGroupOptions = {}): void {
  const { mountPath = '', onError = [], direct } = options;
  // The pattern is noted first, so that a request the guards refuse is still logged under its route.
  for (const route of routes) {
    const path = mountPath + route.path;
    const marked = markRoute(path);
    target[route.method](path, marked, ...guards, ...route.handlers, ...onError);
    // The same function objects: a direct route runs what Express would run for it.
    if (route.direct && direct) direct.add(path, [marked, ...guards, ...route.handlers], onError);
  }
}
