import { docsAsset } from '../docs/docs-assets';
import { DOCS_ASSET_BASE, DOCS_CONTENT_SECURITY_POLICY, DOCS_PAGE_HTML, OPENAPI_JSON_PATH } from '../docs/docs-page';
import { HttpError } from '../errors/http-error';
import { PAGE_OPENER_POLICY } from '../middleware/security-headers';
import { bytes, type Route } from './route';

/** The assets change only with the installed package; a day in a browser's cache is plenty. */
const ASSET_CACHE_CONTROL = 'public, max-age=86400';

/**
 * The API reference: the document as JSON and a page that renders it (the `page` group). No
 * authentication; behind the global rate limit like every other route: a page view costs six
 * requests, and the Swagger UI bundle (1.7 MB) is not something to serve unmetered.
 *
 * The document is read and serialised when the app is built (with the product modules' parts
 * merged in), so a missing docs/openapi.yaml stops the service at start rather than failing a request.
 */
export function docsRoutes(documentJson: string): Route[] {
  return [
    { method: 'get', path: OPENAPI_JSON_PATH, group: 'page', handle: () => bytes(200, documentJson, 'application/json; charset=utf-8') },
    {
      method: 'get', path: '/docs', group: 'page',
      handle: () => bytes(200, DOCS_PAGE_HTML, 'text/html; charset=utf-8', { 'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY, ...PAGE_OPENER_POLICY }),
    },
    {
      method: 'get', path: `${DOCS_ASSET_BASE}/:file`, group: 'page',
      handle: ({ params }) => {
        const asset = docsAsset(params['file']!);
        if (!asset) throw new HttpError(404, 'Not found'); // the answer every unknown path gets
        return bytes(200, asset.body, asset.contentType, { 'Cache-Control': ASSET_CACHE_CONTROL });
      },
    },
  ];
}
