import type { RequestListener } from 'node:http';
import supertest from 'supertest';
import { KyselyServiceKeyRepository } from '../../src/adapters/persistence/kysely/repositories/service-key-repository';
import { ALL_TENANTS } from '../../src/domain/service-key';
import { request } from '../support/contract-request';
import { databaseApp, type DatabaseApp } from '../support/database-app';
import { AUTH, bearer, createApiKey, expectError, joinWithRole, signupOwner, type Account } from '../support/http-fixtures';
import { operator } from '../support/operator-sql';
import { describeIfPostgres } from '../support/postgres';
import { entraActive, oktaActive, scimTokenOf, setActive } from '../support/scim-fixtures';
import { type Downstream, downstream, RunningServer, serviceKeyManager } from '../support/verifier-fixtures';

interface Held {
  readonly token: string;
  readonly admin: Account;
  readonly key: string;
}

/** A tenant with its SCIM token, and an admin whose token and key each instance already holds in memory. */
async function heldEverywhere(writer: RequestListener, instances: readonly RequestListener[]): Promise<Held> {
  const owner = await signupOwner(writer);
  const token = await scimTokenOf(writer, owner);
  const admin = await joinWithRole(writer, owner, 'admin');
  const key = await createApiKey(writer, admin);
  for (const app of instances) {
    await request(app).get(`${AUTH}/me`).set(bearer(admin)).expect(200);
    await request(app).get(`${AUTH}/me`).set('x-api-key', key).expect(200);
  }
  return { token, admin, key };
}

async function expectRefused(app: RequestListener, { admin, key }: Held): Promise<void> {
  expectError(await request(app).get(`${AUTH}/me`).set(bearer(admin)), 401, 'Invalid or expired token');
  expectError(await request(app).get(`${AUTH}/me`).set('x-api-key', key), 401, 'Invalid API key');
}

/**
 * ASVS 5.0 V7.4.2 over two instances on one Postgres, each with its own pool, cache and change
 * listener: a member deactivated by SCIM, or suspended by an operator in SQL, is refused on the very
 * next request at both (no test waits for a notification), and by a verifying service once the
 * change event has reached it.
 */
describeIfPostgres('SCIM suspension on two instances over Postgres', (url) => {
  let a: DatabaseApp;
  let b: DatabaseApp;
  let op: Awaited<ReturnType<typeof operator>>;
  beforeAll(async () => {
    [a, b, op] = await Promise.all([databaseApp({ postgres: url }), databaseApp({ postgres: url }), operator(url)]);
  });
  afterAll(async () => {
    await op?.end();
    await Promise.all([a?.close(), b?.close()]);
  });

  it('V7.4.2: deactivated through SCIM on one instance, the member\'s token and key are refused on the next request at both; reactivated on the other, the key works at both', async () => {
    const held = await heldEverywhere(a.app, [a.app, b.app]);
    expect((await setActive(a.app, held.token, held.admin.userId, oktaActive(false))).status).toBe(200);
    await expectRefused(a.app, held);
    await expectRefused(b.app, held);

    expect((await setActive(b.app, held.token, held.admin.userId, entraActive(true))).status).toBe(200);
    for (const app of [a.app, b.app]) {
      expect((await request(app).get(`${AUTH}/me`).set('x-api-key', held.key)).status).toBe(200);
      expectError(await request(app).get(`${AUTH}/me`).set(bearer(held.admin)), 401, 'Invalid or expired token');
    }
  });

  it('V7.4.2: suspended in SQL by an operator, the member is refused on the next request at both instances', async () => {
    const held = await heldEverywhere(a.app, [a.app, b.app]);
    await op.sql('update users set suspended_at = now() where id = $1', [held.admin.userId]);
    await expectRefused(a.app, held);
    await expectRefused(b.app, held);
    const listed = await request(b.app).get(`/api/v1/scim/v2/Users/${held.admin.userId}`).set({ Authorization: `Bearer ${held.token}` });
    expect(listed.body.active).toBe(false);
  });

  describe('a verifying service following instance A with the client library', () => {
    let server: RunningServer;
    let service: Downstream;
    beforeAll(async () => {
      const { rawKey } = await serviceKeyManager(new KyselyServiceKeyRepository(a.db)).create(`scim-${process.pid}-${Date.now()}`, ALL_TENANTS);
      server = new RunningServer(a.app);
      await server.start();
      service = downstream(server.url, rawKey);
      await service.auth.feedReady();
    });
    afterAll(async () => {
      service?.auth.close();
      await server?.stop();
    });

    it('V7.4.2: refuses the member\'s token and key once the change event of a deactivation made on instance B arrives', async () => {
      const held = await heldEverywhere(b.app, []);
      const whoami = (headers: Record<string, string>) => supertest(service.app).get('/whoami').set(headers);
      expect((await whoami(bearer(held.admin))).status).toBe(200);
      expect((await whoami({ 'x-api-key': held.key })).status).toBe(200);

      const heard = service.nextChange((change) => change.kind === 'user' && change.userId === held.admin.userId);
      expect((await setActive(b.app, held.token, held.admin.userId, oktaActive(false))).status).toBe(200);
      await heard;
      expect(await whoami(bearer(held.admin))).toMatchObject({ status: 401, body: { error: 'Invalid or expired token' } });
      expect(await whoami({ 'x-api-key': held.key })).toMatchObject({ status: 401, body: { error: 'Invalid API key' } });
    });
  });
});
