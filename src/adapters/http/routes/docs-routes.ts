import type { IRouter } from 'express';
import { docsAsset } from '../docs/docs-assets';
import { DOCS_ASSET_BASE, DOCS_CONTENT_SECURITY_POLICY, DOCS_PAGE_HTML, OPENAPI_JSON_PATH } from '../docs/docs-page';
import { openApiJson } from '../docs/openapi-document';
import { PAGE_OPENER_POLICY } from '../middleware/security-headers';

/** The assets change only with the installed package; a day in a browser's cache is plenty. */
const ASSET_CACHE_CONTROL = 'public, max-age=86400';

/**
 * The API reference: the document as JSON and a page that renders it. No authentication. They are
 * mounted behind the global rate limit like every other route: a page view costs six requests,
 * and the Swagger UI bundle (1.7 MB) is not something to serve unmetered.
 *
 * The document is read and serialised when the app is built (with the product modules' parts
 * merged in, when there are any: `json`), so a missing docs/openapi.yaml stops the service at start
 * rather than failing a request. They go on the app itself, not on a
 * router of their own (see addRouteGroup).
 */
export function addDocsRoutes(router: IRouter, json: string = openApiJson()): void {
  router.get(OPENAPI_JSON_PATH, (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/docs', (_req, res) => {
    res.set({ 'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY, ...PAGE_OPENER_POLICY }).type('html').send(DOCS_PAGE_HTML);
  });
  router.get(`${DOCS_ASSET_BASE}/:file`, (req, res, next) => {
    const asset = docsAsset(req.params.file);
    if (!asset) {
      next(); // on to the 404 every unknown path gets
      return;
    }
    res.set({ 'Content-Type': asset.contentType, 'Cache-Control': ASSET_CACHE_CONTROL }).send(asset.body);
  });
}
