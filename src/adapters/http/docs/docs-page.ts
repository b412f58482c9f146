import { PAGE_CONTENT_SECURITY_POLICY } from '../middleware/security-headers';

/**
 * The reference page: Swagger UI from the installed swagger-ui-dist package, started by a script of
 * our own. Every script and style is a same-origin file, so the page needs no inline script, no CDN
 * and no network beyond this service.
 */
export const DOCS_ASSET_BASE = '/docs/assets';
export const OPENAPI_JSON_PATH = '/api/v1/openapi.json';

/** Loaded by the page after swagger-ui-bundle.js (a file, not an inline script, so the CSP can forbid those). */
export const DOCS_INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '${OPENAPI_JSON_PATH}',
    dom_id: '#swagger-ui',
    deepLinking: true,
    // The default asks an online validator for a badge: the page must work offline.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`;

export const DOCS_PAGE_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Portcullis API reference</title>
  <link rel="stylesheet" href="${DOCS_ASSET_BASE}/swagger-ui.css">
  <link rel="icon" type="image/png" sizes="32x32" href="${DOCS_ASSET_BASE}/favicon-32x32.png">
  <link rel="icon" type="image/png" sizes="16x16" href="${DOCS_ASSET_BASE}/favicon-16x16.png">
</head>
<body>
  <div id="swagger-ui">
    <noscript>This page needs JavaScript. The API reference itself is at <a href="${OPENAPI_JSON_PATH}">${OPENAPI_JSON_PATH}</a>.</noscript>
  </div>
  <script src="${DOCS_ASSET_BASE}/swagger-ui-bundle.js"></script>
  <script src="${DOCS_ASSET_BASE}/portcullis-docs.js"></script>
</body>
</html>
`;

/**
 * The page's own policy, replacing the API's `default-src 'none'` on this one response: scripts,
 * styles, the document (fetched by the page) and images from this origin only, plus the `data:` SVG
 * icons that swagger-ui.css embeds. Nothing inline, nothing evaluated: checked in headless Chromium,
 * Swagger UI 5 renders, expands operations and runs "Try it out" under this policy without a
 * single violation.
 */
export const DOCS_CONTENT_SECURITY_POLICY = PAGE_CONTENT_SECURITY_POLICY;
