import { ALL_TENANTS } from '../../src/domain/service-key';
import supertest from 'supertest';
import { request } from '../support/contract-request';
import { KyselyServiceKeyRepository } from '../../src/adapters/persistence/kysely/repositories/service-key-repository';
import { databaseApp, type DatabaseApp } from '../support/database-app';
import { AUTH, bearer, createApiKey, joinWithRole, signupOwner } from '../support/http-fixtures';
import { describeIfPostgres } from '../support/postgres';
import { expectSessionEndsFollowed } from '../support/session-ends';
import { countingIntrospections, type Downstream, downstream, RunningServer, serviceKeyManager, tenantServiceKey } from '../support/verifier-fixtures';

/**
 * Two Portcullis instances on one Postgres, each with its own pool, cache and change listener. The
 * downstream service follows instance A's feed; changes are made through instance B, so what it
 * hears has crossed from one instance to the other through the database.
 */
describeIfPostgres('the verifier library against two Portcullis instances on Postgres', (url) => {
  let a: DatabaseApp;
  let b: DatabaseApp;
  let server: RunningServer;
  let service: Downstream;
  let introspections: () => number;

  beforeAll(async () => {
    a = await databaseApp({ postgres: url }, { changeHeartbeatMs: 500 });
    b = await databaseApp({ postgres: url });
    const manage = serviceKeyManager(new KyselyServiceKeyRepository(a.db));
    const { rawKey } = await manage.create(`downstream-test-${process.pid}-${Date.now()}`, ALL_TENANTS);
    const counted = countingIntrospections(a.app);
    introspections = counted.count;
    server = new RunningServer(counted.listener);
    await server.start();
    service = downstream(server.url, rawKey);
    await service.auth.feedReady();
  });
  afterAll(async () => {
    service?.auth.close();
    await server?.stop();
    await a?.close();
    await b?.close();
  });

  const whoami = (headers: Record<string, string>) => supertest(service.app).get('/whoami').set(headers);

  it('vouches for a token and a key made on the other instance, asking once each', async () => {
    const owner = await signupOwner(b.app);
    const key = await createApiKey(b.app, owner);
    const scoped = downstream(server.url, await tenantServiceKey(new KyselyServiceKeyRepository(a.db), owner.tenantId, 'asking-once'));
    const whoamiScoped = (headers: Record<string, string>) => supertest(scoped.app).get('/whoami').set(headers);
    try {
      await scoped.auth.feedReady();
      const before = introspections();
      for (let i = 0; i < 3; i += 1) {
        expect((await whoamiScoped(bearer(owner))).body).toEqual({ tenant_id: owner.tenantId, user_id: owner.userId, role: 'owner', method: 'jwt' });
        expect((await whoamiScoped({ 'x-api-key': key })).body.method).toBe('api_key');
      }
      expect(introspections()).toBe(before + 2);
    } finally {
      scoped.auth.close();
    }
  });

  it('a key revoked on the other instance reaches the downstream service through the feed', async () => {
    const owner = await signupOwner(b.app);
    const key = await createApiKey(b.app, owner);
    expect((await whoami({ 'x-api-key': key })).status).toBe(200);
    const { id } = (await request(b.app).get(`${AUTH}/api-keys`).set(bearer(owner))).body.api_keys[0];
    const heard = service.nextChange((change) => change.kind === 'api_key' && change.keyId === id);
    await request(b.app).delete(`${AUTH}/api-keys/${id}`).set(bearer(owner)).expect(200);
    await heard;
    expect(await whoami({ 'x-api-key': key })).toMatchObject({ status: 401, body: { error: 'Invalid API key' } });
  });

  it('a member removed on the other instance loses token and key downstream', async () => {
    const owner = await signupOwner(b.app);
    const admin = await joinWithRole(b.app, owner, 'admin');
    const key = await createApiKey(b.app, admin);
    expect((await whoami(bearer(admin))).status).toBe(200);
    expect((await whoami({ 'x-api-key': key })).status).toBe(200);
    const heard = service.nextChange((change) => change.kind === 'user' && change.userId === admin.userId);
    await request(b.app).delete(`${AUTH}/members/${admin.userId}`).set(bearer(owner)).expect(200);
    await heard;
    expect(await whoami(bearer(admin))).toMatchObject({ status: 401, body: { error: 'Invalid or expired token' } });
    expect(await whoami({ 'x-api-key': key })).toMatchObject({ status: 401, body: { error: 'Invalid API key' } });
  });

  // V7.4.1, V7.4.5: a session ended on one instance is refused by a verifier streaming from the other.
  it('a session ended on the other instance (logout, then an admin ending the rest) is refused downstream; the member\'s other session stands', async () => {
    await expectSessionEndsFollowed(b.app, await signupOwner(b.app), service, introspections);
  });
});
