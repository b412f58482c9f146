import { HttpError } from '../errors/http-error';
import { PAGE_CONTENT_SECURITY_POLICY, PAGE_OPENER_POLICY } from '../middleware/security-headers';
import { type Answer, bytes, type Route } from '../routes/route';
import type { ConsoleFile, ConsoleFiles } from './console-files';

export const CONSOLE_BASE = '/console';

/**
 * The console's policy: the service's page policy (its script, style sheet and icon from this
 * origin, calls to this origin's API; the build emits nothing inline or evaluated, and every form is
 * handled by the page's script).
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = PAGE_CONTENT_SECURITY_POLICY;

/** Bundles are named by their content hash: a new build is a new name, so a year is safe. */
const HASHED_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const ICON_CACHE_CONTROL = 'public, max-age=86400';

function send(file: ConsoleFile, headers: Record<string, string>): Answer {
  return bytes(200, file.body, file.contentType, { 'Content-Security-Policy': CONSOLE_CONTENT_SECURITY_POLICY, ...headers });
}

/**
 * The tenant administrators' console under /console (the `page` group): its bundles under
 * /console/assets, and the page at /console and at every one-segment address below it
 * (/console/members, /console/join?token=...), and at /console/dev/mailbox (the development mailbox's
 * screen, which says so where the service has no development mailbox), where the page's own router picks the screen. The
 * page keeps the API's `Cache-Control: no-store`; `Referrer-Policy: no-referrer` keeps an
 * invitation token in the address from leaving in a Referer header; `Cross-Origin-Opener-Policy:
 * same-origin` keeps a window of another site that opened the page from holding a handle on it
 * (PAGE_OPENER_POLICY).
 *
 * Unknown assets and deeper paths get the 404 every unknown path gets. Behind the global rate
 * limit like the reference page; a page load is three requests.
 */
export function consoleRoutes(files: ConsoleFiles): Route[] {
  const page = (): Answer => send(files.page, { 'Referrer-Policy': 'no-referrer', ...PAGE_OPENER_POLICY });
  return [
    { method: 'get', path: CONSOLE_BASE, group: 'page', handle: page },
    { method: 'get', path: `${CONSOLE_BASE}/dev/mailbox`, group: 'page', handle: page },
    {
      method: 'get', path: `${CONSOLE_BASE}/assets/:file`, group: 'page',
      handle: ({ params }) => {
        const asset = files.assets.get(params['file']!);
        if (!asset) throw new HttpError(404, 'Not found');
        return send(asset, { 'Cache-Control': HASHED_ASSET_CACHE_CONTROL });
      },
    },
    {
      method: 'get', path: `${CONSOLE_BASE}/:page`, group: 'page',
      handle: ({ params }) => {
        const file = files.topLevel.get(params['page']!);
        return file ? send(file, { 'Cache-Control': ICON_CACHE_CONTROL }) : page();
      },
    },
  ];
}
