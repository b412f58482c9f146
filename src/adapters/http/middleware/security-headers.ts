import helmet, { type HelmetOptions } from 'helmet';
import type { NodeHandler } from '../fast-path/node-handler';

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
 * - Cache-Control no-store (set beside helmet, which has no such option): answers carry tokens,
 *   keys and identities; no shared or browser cache may keep them.
 *
 * Every other header of helmet's default set is meant for HTML pages in a browser, so it is off.
 */
const API_HELMET_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  xFrameOptions: { action: 'deny' },
  strictTransportSecurity: true,
  xContentTypeOptions: true,
  crossOriginOpenerPolicy: false,
  crossOriginEmbedderPolicy: false,
  originAgentCluster: false,
  referrerPolicy: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  xPoweredBy: false,
};

/**
 * The policy of the two pages the service serves itself (the API reference and the console), which
 * replaces the API's `default-src 'none'` on their responses: scripts, styles, images and calls from
 * this origin only (plus `data:` images, which swagger-ui.css embeds), nothing inline, nothing
 * evaluated, no framing, no form posts, no <base> rewriting.
 */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * For the same two pages, which are documents a browser renders in a window: a window of another
 * origin that opened one (a link with target=_blank, window.open) gets no handle on it, and it none
 * on its opener, so neither can navigate the other (a console tab swapped for a phishing page) or
 * probe it across origins. The API's JSON answers have no window, so they go without it.
 */
export const PAGE_OPENER_POLICY = { 'Cross-Origin-Opener-Policy': 'same-origin' } as const;

export function securityHeaders(): NodeHandler {
  const apiHeaders = helmet(API_HELMET_OPTIONS);
  return (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    apiHeaders(req, res, next);
  };
}
