import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from '../support/contract-request';
import { readConsoleFiles } from '../../src/adapters/http/console/console-files';
import { CONSOLE_CONTENT_SECURITY_POLICY } from '../../src/adapters/http/console/console-routes';
import { buildTestApp, expectTooManyRequests } from '../support/http-app';
import { AUTH, bearer, expectError, signupOwner } from '../support/http-fixtures';

const PAGE = '<!doctype html><title>Portcullis console</title><script type="module" src="/console/assets/index-Ab12Cd34.js"></script>';

/** A console build of our own: the route must serve what is built, whatever the build is. */
function fakeBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'console-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), PAGE);
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js'), 'console.log("console")');
  writeFileSync(path.join(dir, 'assets', 'index-Ef56Gh78.css'), 'body{}');
  writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js.map'), '{"sources":["secret.ts"]}');
  return dir;
}

const consoleApp = (overrides = {}) => buildTestApp(overrides, {}, { consoleFiles: readConsoleFiles(fakeBuild()) });

describe('the console at /console', () => {
  it('answers every screen\'s address with the page, under a CSP that allows no inline script', async () => {
    const { app } = await consoleApp();
    for (const address of ['/console', '/console/', '/console/members', '/console/join?token=abc', '/CONSOLE/Members/',
      '/console/dev/mailbox']) {
      const res = await request(app).get(address).expect(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toBe(PAGE);
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
    expect(CONSOLE_CONTENT_SECURITY_POLICY).toContain("script-src 'self';");
    expect(CONSOLE_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONSOLE_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });

  it('serves the built scripts and styles, cached for good, and the icon', async () => {
    const { app } = await consoleApp();
    const script = await request(app).get('/console/assets/index-Ab12Cd34.js').expect(200);
    expect(script.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.text).toBe('console.log("console")');
    const style = await request(app).get('/console/assets/index-Ef56Gh78.css').expect(200);
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    const icon = await request(app).get('/console/favicon.svg').expect(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
  });

  it('serves nothing else: unknown files, source maps, escapes and deeper paths are unknown routes', async () => {
    const { app } = await consoleApp();
    for (const address of ['/console/assets/nope.js', '/console/assets/index-Ab12Cd34.js.map', '/console/assets/..%2Findex.html',
      '/console/assets/%2e%2e%2f%2e%2e%2fpackage.json', '/console/members/u-1', '/console/dev/other']) {
      expectError(await request(app).get(address), 404, 'Not found');
    }
    expectError(await request(app).post('/console/members'), 404, 'Not found');
    // A screen's address never reaches the disk: an escape is just an address the page does not know.
    expect((await request(app).get('/console/%2e%2e%2fpackage.json').expect(200)).text).toBe(PAGE);
  });

  it('leaves the API as it was: its own CSP, and no route taken', async () => {
    const { app } = await consoleApp();
    const owner = await signupOwner(app);
    const me = await request(app).get(`${AUTH}/me`).set(bearer(owner)).expect(200);
    expect(me.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(me.headers['referrer-policy']).toBeUndefined();
  });

  it('is an unknown route when the console has not been built', async () => {
    const { app } = await buildTestApp({}, {}, { consoleFiles: readConsoleFiles(mkdtempSync(path.join(tmpdir(), 'no-console-'))) });
    expectError(await request(app).get('/console/'), 404, 'Not found');
    expectError(await request(app).get('/console/members'), 404, 'Not found');
  });

  it('is counted by the global rate limit', async () => {
    const { app } = await consoleApp({ rateLimits: { global: 2, login: 5, signup: 3 } });
    await request(app).get('/console/').expect(200);
    await request(app).get('/console/assets/index-Ab12Cd34.js').expect(200);
    expectTooManyRequests(await request(app).get('/console/members'), { policy: '2-in-1min' });
  });
});
