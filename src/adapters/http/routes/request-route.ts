import type { NodeHandler, NodeRequest, NodeResponse } from '../fast-path/node-handler';

// res.locals is per request and untyped; these functions are the only way in and out of it.
const KEY = 'routePattern';

/** What logs and metrics call a request that matched no route: one label, however many paths are tried. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Notes the pattern of the route that matched (`/api/v1/auth/invites/:id`), fixed when the app is
 * built. The raw URL cannot stand in for it: it carries ids and query strings, and Express matches
 * case-insensitively, so every spelling of a path would be a new log value and a new metric series.
 */
export function markRoute(pattern: string): NodeHandler {
  return (_req, res, next) => {
    res.locals[KEY] = pattern;
    next();
  };
}

/**
 * The matched route's pattern: the one markRoute noted, else that of a route on the app itself
 * (`/healthz`; its path is the whole pattern there), else UNMATCHED_ROUTE.
 */
export function routePatternOf(req: NodeRequest, res: NodeResponse): string {
  const marked = res.locals[KEY] as string | undefined;
  if (marked !== undefined) return marked;
  const route = (req as { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? route.path : UNMATCHED_ROUTE;
}
