import { readFileSync } from 'node:fs';
import { request } from '../support/contract-request';
import { load } from 'js-yaml';
import { OPENAPI_DOCUMENT_PATH } from '../../src/adapters/http/docs/openapi-document';
import { buildTestApp, expectTooManyRequests } from '../support/http-app';
import { AUTH, expectError } from '../support/http-fixtures';
import { documentedOperations } from '../support/openapi-operations';

const documentOnDisk = load(readFileSync(OPENAPI_DOCUMENT_PATH, 'utf8')) as Record<string, unknown>;

/** Every src= and href= of a page, in order. */
function referencedUrls(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
}

describe('GET /api/v1/openapi.json', () => {
  it('serves docs/openapi.yaml as JSON, to anyone', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).get('/api/v1/openapi.json').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual(documentOnDisk);
    expect(res.body.openapi).toMatch(/^3\.1\./);
  });

  it('is counted by the global rate limit', async () => {
    const { app } = await buildTestApp({ rateLimits: { global: 2, login: 5, signup: 3 } });
    await request(app).get('/api/v1/openapi.json').expect(200);
    await request(app).get('/docs').expect(200);
    expectTooManyRequests(await request(app).get('/api/v1/openapi.json'), { policy: '2-in-1min' });
  });
});

describe('GET /docs', () => {
  it('serves a page that references only same-origin assets, each of which loads', async () => {
    const { app } = await buildTestApp();
    const page = await request(app).get('/docs').expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<title>Portcullis API reference</title>');
    // An HTML page, unlike the API's answers: no window of another origin keeps a handle on it.
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    const urls = referencedUrls(page.text);
    expect(urls).toEqual(expect.arrayContaining(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css', '/docs/assets/portcullis-docs.js']));
    for (const url of urls) {
      expect(url).toMatch(/^\/(?!\/)/); // same origin: a path, never a scheme or a protocol-relative //host
      const asset = await request(app).get(url).expect(200);
      expect(Number(asset.headers['content-length'])).toBeGreaterThan(0);
    }
  });

  it('starts Swagger UI on this service\'s document, without the online validator badge', async () => {
    const { app } = await buildTestApp();
    const script = await request(app).get('/docs/assets/portcullis-docs.js').expect(200);
    expect(script.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(script.text).toContain("url: '/api/v1/openapi.json'");
    expect(script.text).toContain('validatorUrl: null');
    const bundle = await request(app).get('/docs/assets/swagger-ui-bundle.js').expect(200);
    expect(bundle.text).toContain('SwaggerUIBundle');
  });

  it('has a CSP of its own that allows same-origin scripts and styles only, and leaves the API\'s CSP alone', async () => {
    const { app } = await buildTestApp();
    const csp = (await request(app).get('/docs')).headers['content-security-policy'] as string;
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values.join(' ')]));
    expect(directives).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
    for (const path of ['/api/v1/openapi.json', `${AUTH}/me`, '/docs/assets/portcullis-docs.js']) {
      expect((await request(app).get(path)).headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    }
  });

  it('serves no other file of the package, and nothing outside it', async () => {
    const { app } = await buildTestApp();
    for (const path of ['/docs/assets/index.html', '/docs/assets/swagger-initializer.js', '/docs/assets/swagger-ui-bundle.js.map',
      '/docs/assets/..%2Fpackage.json', '/docs/assets/%2e%2e%2f%2e%2e%2fpackage.json', '/docs/assets/']) {
      expectError(await request(app).get(path), 404, 'Not found');
    }
  });
});

describe('docs/openapi.yaml covers the service', () => {
  const documented = documentedOperations(documentOnDisk);
  const isDocumented = (method: string, path: string) => documented.some((op) => op.method === method.toUpperCase() && op.template === path);

  it('documents every route the app serves', async () => {
    const { assembly } = await buildTestApp();
    const routes = assembly.routes.map((route) => [route.method, route.path.replace(/:(\w+)/g, '{$1}')] as const);
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter(([method, path]) => !isDocumented(method, path))).toEqual([]);
  });
});
