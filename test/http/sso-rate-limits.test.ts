import { request } from '../support/contract-request';
import { buildTestApp, GENEROUS_RATE_LIMITS } from '../support/http-app';
import { AUTH } from '../support/http-fixtures';
import { freshDomain } from '../support/sso-fixtures';

describe('single sign-on rate limits', () => {
  it('V2.4.1 start and callback share a per-address limit (RATE_LIMIT_SSO); other addresses are not held back', async () => {
    const { app } = await buildTestApp({ rateLimits: { ...GENEROUS_RATE_LIMITS, sso: 3 }, trustProxy: 1 });
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    const email = `ann@${freshDomain()}`;
    expect((await request(app).get(`${AUTH}/sso/start`).query({ email }).set(from('203.0.113.7'))).status).toBe(404);
    expect((await request(app).get(`${AUTH}/sso/start`).query({ email }).set(from('203.0.113.7'))).status).toBe(404);
    expect((await request(app).get(`${AUTH}/sso/callback`).query({ state: 'x', code: 'y' }).set(from('203.0.113.7'))).status).toBe(302);
    const limited = await request(app).get(`${AUTH}/sso/callback`).query({ state: 'x', code: 'y' }).set(from('203.0.113.7'));
    expect(limited.status).toBe(429);
    expect((await request(app).get(`${AUTH}/sso/start`).query({ email }).set(from('203.0.113.7'))).status).toBe(429);
    expect((await request(app).get(`${AUTH}/sso/start`).query({ email }).set(from('198.51.100.4'))).status).toBe(404);
  });
});
