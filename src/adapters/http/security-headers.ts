import helmet from 'helmet';
import type { RequestHandler } from 'express';

/**
 * helmet's headers, tuned for an API that only ever answers JSON: a CSP that allows nothing to load
 * or frame a response (nothing here is meant to render), no cross-origin embedding of responses, and
 * helmet's defaults for the rest (nosniff, HSTS, no referrer, ...). x-powered-by is off in app.ts.
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}
