import { PAGE_CONTENT_SECURITY_POLICY, PAGE_OPENER_POLICY } from '../middleware/security-headers';
import type { IRouter, Response } from 'express';
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

function send(res: Response, file: ConsoleFile, headers: Record<string, string>): void {
  res.set({ 'Content-Type': file.contentType, 'Content-Security-Policy': CONSOLE_CONTENT_SECURITY_POLICY, ...headers }).send(file.body);
}

/**
 * The tenant administrators' console under /console: its bundles under /console/assets, and the
 * page at /console and at every one-segment address below it (/console/members,
 * /console/join?token=...), where the page's own router picks the screen. The page keeps the API's
 * `Cache-Control: no-store`; `Referrer-Policy: no-referrer` keeps an invitation token in the
 * address from leaving in a Referer header; `Cross-Origin-Opener-Policy: same-origin` keeps a window
 * of another site that opened the page from holding a handle on it (PAGE_OPENER_POLICY).
 *
 * Unknown assets and deeper paths fall through to the 404 every unknown path gets. Mounted behind
 * the global rate limit like the reference page; a page load is three requests.
 */
export function addConsoleRoutes(router: IRouter, files: ConsoleFiles): void {
  const page = (_req: unknown, res: Response): void => {
    send(res, files.page, { 'Referrer-Policy': 'no-referrer', ...PAGE_OPENER_POLICY });
  };
  router.get(CONSOLE_BASE, page);
  router.get(`${CONSOLE_BASE}/assets/:file`, (req, res, next) => {
    const asset = files.assets.get(req.params.file);
    if (!asset) {
      next();
      return;
    }
    send(res, asset, { 'Cache-Control': HASHED_ASSET_CACHE_CONTROL });
  });
  router.get(`${CONSOLE_BASE}/:page`, (req, res) => {
    const file = files.topLevel.get(req.params.page);
    if (file) send(res, file, { 'Cache-Control': ICON_CACHE_CONTROL });
    else page(req, res);
  });
}
