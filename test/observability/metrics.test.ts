import { Registry } from 'prom-client';
import { request } from '../support/contract-request';
import { HttpMetrics } from '../../src/adapters/http/middleware/http-metrics';
import { createMetrics } from '../../src/bootstrap/metrics';
import { AUTH, bearer, createApiKey, PASSWORD, signupOwner } from '../support/http-fixtures';
import { buildTestApp, SPEC_RATE_LIMITS } from '../support/http-app';
import { uniqueEmail } from '../support/test-use-cases';

/** The value of one sample in Prometheus's text format, or undefined when the series does not exist. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(app: Parameters<typeof request>[0]): Promise<string> {
  const res = await request(app).get('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
}

describe('metrics', () => {
  it('times requests by method, route pattern and status (never the raw path)', async () => {
    const metrics = new HttpMetrics(new Registry());
    const { app } = await buildTestApp({}, {}, { metrics });
    const owner = await signupOwner(app);
    for (const id of ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002']) {
      expect((await request(app).delete(`${AUTH}/invites/${id}`).set(bearer(owner))).status).toBe(404);
    }
    await request(app).get('/no/such/path/1');
    await request(app).get('/no/such/path/2');
    const text = await scrape(app);
    expect(sample(text, 'portcullis_http_request_duration_seconds_count{method="DELETE",route="/api/v1/auth/invites/:id",status="404"}')).toBe(2);
    expect(sample(text, 'portcullis_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}')).toBe(2);
    expect(sample(text, 'portcullis_http_request_duration_seconds_count{method="POST",route="/api/v1/auth/signup",status="201"}')).toBe(1);
    expect(text).not.toContain('00000000-0000-4000-8000-000000000001');
    expect(text).not.toContain('/no/such/path');
  });

  it('counts authentications by method, outcome and reason', async () => {
    const metrics = new HttpMetrics(new Registry());
    const { app } = await buildTestApp({}, {}, { metrics });
    const owner = await signupOwner(app);
    const apiKey = await createApiKey(app, owner); // one jwt success
    await request(app).get(`${AUTH}/me`).set(bearer(owner));
    await request(app).get(`${AUTH}/me`).set('x-api-key', apiKey);
    await request(app).get(`${AUTH}/me`).set('Authorization', 'Bearer not-a-token');
    await request(app).get(`${AUTH}/me`).set('x-api-key', 'short');
    await request(app).get(`${AUTH}/me`).set('x-api-key', apiKey.slice(0, -1) + (apiKey.endsWith('a') ? 'b' : 'a')); // well formed, unknown
    await request(app).get(`${AUTH}/me`);
    const text = await scrape(app);
    const count = (labels: string) => sample(text, `portcullis_authentications_total{${labels}}`);
    expect(count('method="jwt",outcome="success",reason="ok"')).toBe(2);
    expect(count('method="api_key",outcome="success",reason="ok"')).toBe(1);
    expect(count('method="jwt",outcome="failure",reason="invalid_token"')).toBe(1);
    expect(count('method="api_key",outcome="failure",reason="invalid_api_key_format"')).toBe(1);
    expect(count('method="api_key",outcome="failure",reason="invalid_api_key"')).toBe(1);
    expect(count('method="none",outcome="failure",reason="missing_authentication"')).toBe(1);
  });

  it('counts logins and signups by outcome, and rate-limit rejections by limiter', async () => {
    const metrics = new HttpMetrics(new Registry());
    const { app } = await buildTestApp({ rateLimits: { ...SPEC_RATE_LIMITS, global: 1000 } }, {}, { metrics });
    const owner = await signupOwner(app);
    await request(app).post(`${AUTH}/signup`).send({ email: owner.email, password: PASSWORD, tenant_name: 'Again' }); // 409
    await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail(), password: PASSWORD }); // 400
    await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail(), password: PASSWORD, tenant_name: 'Late' }); // 429
    await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD });
    await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: 'wrong password' });
    const text = await scrape(app);
    expect(sample(text, 'portcullis_signups_total{outcome="success"}')).toBe(1);
    expect(sample(text, 'portcullis_signups_total{outcome="conflict"}')).toBe(1);
    expect(sample(text, 'portcullis_signups_total{outcome="invalid_input"}')).toBe(1);
    expect(sample(text, 'portcullis_signups_total{outcome="throttled"}')).toBe(1);
    expect(sample(text, 'portcullis_logins_total{outcome="success"}')).toBe(1);
    expect(sample(text, 'portcullis_logins_total{outcome="invalid_credentials"}')).toBe(1);
    expect(sample(text, 'portcullis_rate_limit_rejections_total{limiter="signup"}')).toBe(1);
    expect(sample(text, 'portcullis_rate_limit_rejections_total{limiter="login"}')).toBeUndefined();
  });

  it("the process's registry adds event-loop lag and Node's defaults, and pool gauges read when scraped", async () => {
    let stats = { total: 7, idle: 3, waiting: 2 };
    const metrics = createMetrics(() => stats);
    const { app } = await buildTestApp({}, {}, { metrics });
    let text = await scrape(app);
    expect(sample(text, 'portcullis_db_pool_in_use')).toBe(4);
    expect(sample(text, 'portcullis_db_pool_idle')).toBe(3);
    expect(sample(text, 'portcullis_db_pool_waiting')).toBe(2);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    stats = { total: 2, idle: 2, waiting: 0 };
    text = await scrape(app);
    expect(sample(text, 'portcullis_db_pool_in_use')).toBe(0);
  });

  it('many apps, each with its own registry: no clash, no shared counts', async () => {
    const first = await buildTestApp({}, {}, { metrics: new HttpMetrics(new Registry()) });
    const second = await buildTestApp({}, {}, { metrics: new HttpMetrics(new Registry()) });
    await request(first.app).get(`${AUTH}/me`);
    const text = await scrape(second.app);
    expect(text).not.toContain('missing_authentication');
  });

  it('off: without metrics there is no /metrics route; with serveMetrics false, none on the main app either', async () => {
    const { app } = await buildTestApp();
    expect((await request(app).get('/metrics')).status).toBe(404);
    const elsewhere = await buildTestApp({}, {}, { metrics: new HttpMetrics(new Registry()), serveMetrics: false });
    expect((await request(elsewhere.app).get('/metrics')).status).toBe(404);
  });

  it('/metrics is not rate limited', async () => {
    const { app } = await buildTestApp({ rateLimits: { global: 2, login: 5, signup: 3 } }, {}, { metrics: new HttpMetrics(new Registry()) });
    for (let i = 0; i < 5; i += 1) expect((await request(app).get('/metrics')).status).toBe(200);
  });
});
