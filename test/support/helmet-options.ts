import type { HelmetOptions } from 'helmet';

/**
 * helmet's options for a JSON API: the headers of src/adapters/http/middleware/security-headers.ts, and none of
 * those meant for HTML pages in a browser (docs/security.md, "Security headers"). The service sets
 * the resulting values as constants; the test and the micro-benchmark run helmet with these.
 */
export const API_HELMET_OPTIONS: HelmetOptions = {
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
