import helmet from 'helmet';
import type { NodeHandler } from './node-handler';

type Header = readonly [name: string, value: string];

/**
 * The headers that matter for a JSON API (OWASP's REST Security Cheat Sheet, "Security headers"),
 * and why each stays; docs/security.md lists them and the browser-page headers left out.
 *
 * - Content-Security-Policy `default-src 'none'; frame-ancestors 'none'`: if a response is ever
 *   rendered (a browser opening an error JSON, a sniffed type), nothing loads and nothing frames it.
 * - X-Frame-Options DENY: the same refusal to be framed, for browsers without frame-ancestors.
 * - X-Content-Type-Options nosniff: a JSON body is never taken for HTML or script.
 * - Strict-Transport-Security: clients that once reached us over HTTPS never fall back to HTTP,
 *   where a bearer token or an API key would travel in clear.
 * - Cross-Origin-Resource-Policy same-origin: another site cannot load a response as a no-cors
 *   subresource (CORS-allowed calls from the configured origin are unaffected).
 * - Cache-Control no-store: answers carry tokens, keys and identities; no shared or browser cache
 *   may keep them.
 *
 * helmet computes the values (its CSP and HSTS syntax); they are captured once at start, and each
 * response gets the same fixed list without running helmet's dozen small middlewares again.
 */
function apiHeadersFromHelmet(): Header[] {
  const captured: Header[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => captured.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  const middleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: true,
    xContentTypeOptions: true,
    // Headers for HTML pages and the browsers that render them: a JSON answer has no document, no
    // links, no window to open or download to run (docs/security.md, "Security headers").
    crossOriginOpenerPolicy: false,
    crossOriginEmbedderPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    xPoweredBy: false, // off in app.ts already
  });
  middleware({} as never, recorder as never, () => undefined);
  const expected = ['Content-Security-Policy', 'Cross-Origin-Resource-Policy', 'Strict-Transport-Security', 'X-Content-Type-Options', 'X-Frame-Options'];
  const names = captured.map(([name]) => name).sort();
  if (names.join() !== expected.join()) throw new Error(`helmet set ${names.join(', ')}; expected ${expected.join(', ')}`);
  return [...captured, ['Cache-Control', 'no-store']];
}

export function securityHeaders(): NodeHandler {
  const headers = apiHeadersFromHelmet();
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
