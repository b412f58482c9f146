import { describeIfPostgres } from '../support/postgres';
import { describeIfRedis, uniqueRedisPrefix } from '../support/redis';
import { ServiceProcess } from '../support/service-process';
import { uniqueEmail } from '../support/test-use-cases';

const AUTH = '/api/v1/auth';
const PASSWORD = 'correct horse battery';

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function call(service: ServiceProcess, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const res = await fetch(`${service.url}${AUTH}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = (await res.json()) as Record<string, unknown>;
  // A 5xx is never an expected answer here; when one comes, the instance's own account of it is
  // what tells a flaky machine from a fault.
  if (res.status >= 500) throw new Error(`${method} ${path} answered ${res.status} ${JSON.stringify(body)}; instance's warnings: ${JSON.stringify(service.troubles)}`);
  return { status: res.status, body };
}

const bearer = (token: unknown) => ({ authorization: `Bearer ${String(token)}` });

/**
 * Two real service processes on one Postgres and one Redis, as behind a load balancer: whatever
 * one instance writes or counts, the other sees. `make test-scale` runs this file alone; `make
 * test` (and so CI) runs it with the rest.
 */
describeIfPostgres('two instances on one Postgres and one Redis', (databaseUrl) => {
  describeIfRedis('(with Redis)', (redisUrl) => {
    let a: ServiceProcess;
    let b: ServiceProcess;

    beforeAll(async () => {
      const env = {
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: uniqueRedisPrefix('scale'), // counters of this run only, shared by both instances
        RATE_LIMIT_GLOBAL: '10000',
        RATE_LIMIT_SIGNUP: '10000',
        RATE_LIMIT_LOGIN: '5',
      };
      [a, b] = await Promise.all([ServiceProcess.start(env), ServiceProcess.start(env)]);
      await Promise.all([a.waitUntilReady(), b.waitUntilReady()]);
    }, 180_000);

    afterAll(() => {
      a?.kill();
      b?.kill();
    });

    it('a tenant created through one instance is served by the other', async () => {
      const signup = await call(a, 'POST', '/signup', { body: { email: uniqueEmail('scale'), password: PASSWORD, tenant_name: 'Scale' } });
      expect(signup.status).toBe(201);
      const me = await call(b, 'GET', '/me', { headers: bearer(signup.body.token) });
      expect(me).toEqual({ status: 200, body: { tenant_id: signup.body.tenant_id, user_id: expect.any(String), role: 'owner' } });

      const key = await call(b, 'POST', '/api-keys', { headers: bearer(signup.body.token) });
      expect(key.status).toBe(201);
      expect((await call(a, 'GET', '/me', { headers: { 'x-api-key': String(key.body.api_key) } })).body.tenant_id).toBe(signup.body.tenant_id);

      const inviteEmail = uniqueEmail('listed');
      expect((await call(a, 'POST', '/invite', { headers: bearer(signup.body.token), body: { email: inviteEmail } })).status).toBe(201);
      const listed = await call(b, 'GET', '/invites', { headers: bearer(signup.body.token) });
      expect((listed.body.invites as Array<{ email: string }>).map((invite) => invite.email)).toEqual([inviteEmail]);
    });

    it('rate limits are shared: the login limit (5 a minute) is spent across both instances', async () => {
      const attempt = (service: ServiceProcess) => call(service, 'POST', '/login', { body: { email: uniqueEmail('limited'), password: PASSWORD } });
      const statuses: number[] = [];
      for (const service of [a, b, a, b, a]) statuses.push((await attempt(service)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      expect((await attempt(b)).status).toBe(429);
      expect((await attempt(a)).status).toBe(429);
    });

    it('an invite accepted through one instance cannot be accepted through the other, even at the same moment', async () => {
      const owner = await call(b, 'POST', '/signup', { body: { email: uniqueEmail('inviter'), password: PASSWORD, tenant_name: 'Invites' } });
      const invite = await call(b, 'POST', '/invite', { headers: bearer(owner.body.token), body: { email: uniqueEmail('invitee'), role: 'member' } });
      const accept = (service: ServiceProcess) =>
        call(service, 'POST', '/signup', { body: { email: uniqueEmail('taker'), password: PASSWORD, invite_token: invite.body.invite_token } });

      const racing = await Promise.all([accept(a), accept(b), accept(a), accept(b)]);
      expect(racing.filter((answer) => answer.status === 201)).toHaveLength(1);
      expect(racing.filter((answer) => answer.status !== 201)).toEqual(Array(3).fill({ status: 400, body: { error: 'Invite already accepted' } }));
      for (const service of [a, b]) expect(await accept(service)).toEqual({ status: 400, body: { error: 'Invite already accepted' } });
    });
  });
});
