import type { RequestListener } from 'node:http';
import supertest from 'supertest';
import { request } from '../support/contract-request';
import { KyselyServiceKeyRepository } from '../../src/adapters/persistence/kysely/repositories/service-key-repository';
import { ALL_TENANTS } from '../../src/domain/service-key';
import { dataOf, openRawChangeStream, watchChangeStreams } from '../support/change-stream-client';
import { databaseApp, type DatabaseApp } from '../support/database-app';
import { AUTH, bearer, createApiKey, expectError, joinWithRole, signupOwner } from '../support/http-fixtures';
import { describeIfPostgres } from '../support/postgres';
import { postgresTarget, TcpProxy, throughPort } from '../support/tcp-proxy';
import { type Downstream, downstream, RunningServer, serviceKeyManager, tenantServiceKey } from '../support/verifier-fixtures';

/** How late instance B hears and reads everything: its every round trip to Postgres costs twice this more. */
const DELAY_MS = 300;

/**
 * The documented shape behind a load balancer, made deterministic: the downstream's change stream
 * reaches instance A, its introspections instance B, and B reaches Postgres through a proxy that
 * delays every byte. So B hears of a change (and reads it) well after A has put it on the stream.
 */
function loadBalancer(streams: RequestListener, introspections: RequestListener): { listener: RequestListener; introspected: () => number } {
  let introspected = 0;
  return {
    listener: (req, res) => {
      if (req.method === 'GET' && req.url?.startsWith(`${AUTH}/changes`)) return streams(req, res);
      if (req.method === 'POST' && req.url === `${AUTH}/introspect`) introspected += 1;
      return introspections(req, res);
    },
    introspected: () => introspected,
  };
}

describeIfPostgres('the verifier library, its stream on one Portcullis instance and its introspections on another that lags', (url) => {
  let a: DatabaseApp;
  let b: DatabaseApp;
  let proxy: TcpProxy;
  let server: RunningServer;
  let service: Downstream;
  let introspected: () => number;
  let nowMs: number;
  let rawServiceKey: string;

  beforeAll(async () => {
    proxy = await TcpProxy.start(postgresTarget(url));
    a = await databaseApp({ postgres: url }, { changeHeartbeatMs: 500 });
    b = await databaseApp({ postgres: throughPort(url, proxy.listeningPort) });
    const { rawKey } = await serviceKeyManager(new KyselyServiceKeyRepository(a.db)).create(`across-${process.pid}-${Date.now()}`, ALL_TENANTS);
    rawServiceKey = rawKey;
    const balanced = loadBalancer(a.app, b.app);
    introspected = balanced.introspected;
    server = new RunningServer(balanced.listener);
    await server.start();
    nowMs = Date.now();
    // B answers slowly once it has to read the log through the proxy: more than the default 2 s is allowed.
    service = downstream(server.url, rawKey, { now: () => nowMs, timeoutMs: 10_000 });
    await service.auth.feedReady();
  }, 60_000);
  afterAll(async () => {
    service?.auth.close();
    await server?.stop();
    await a?.close();
    await b?.close();
    await proxy?.close();
  });
  afterEach(() => {
    proxy.delay(0);
  });

  const whoami = (headers: Record<string, string>) => supertest(service.app).get('/whoami').set(headers);
  const introspectOnB = (body: object) => request(b.app).post(`${AUTH}/introspect`).set('x-service-key', rawServiceKey).send(body);

  it('a key revoked: once the change has reached the downstream, it refuses the key, though B has not heard of the change yet', async () => {
    const owner = await signupOwner(a.app);
    const key = await createApiKey(a.app, owner);
    // B current first: a change it heard late (the key's creation) would otherwise drop what it remembers next.
    await b.positions.caughtUp();
    expect((await whoami({ 'x-api-key': key })).status).toBe(200); // asked B, which now holds the key in memory too
    const { id } = (await request(a.app).get(`${AUTH}/api-keys`).set(bearer(owner))).body.api_keys[0];

    proxy.delay(DELAY_MS);
    const heard = service.nextChange((change) => change.kind === 'api_key' && change.keyId === id);
    await request(a.app).delete(`${AUTH}/api-keys/${id}`).set(bearer(owner)).expect(200);
    const change = await heard;
    // B has not heard of it yet; asked even without a position, it first confirms freshness
    // (reads the log's head and catches up), so it never answers from what it remembers.
    expect(b.positions.current).toBeLessThan(change.position);
    const onB = (await introspectOnB({ api_key: key })).body as { active: boolean; position: number };
    expect(onB.active).toBe(false);
    expect(onB.position).toBeGreaterThanOrEqual(change.position);

    expectError(await whoami({ 'x-api-key': key }), 401, 'Invalid API key');
    proxy.delay(0);
    await b.positions.caughtUp();
    expectError(await whoami({ 'x-api-key': key }), 401, 'Invalid API key');
  });

  it('a member removed: their token and key are refused after the change, and nothing stale is remembered afterwards', async () => {
    const owner = await signupOwner(a.app);
    const admin = await joinWithRole(a.app, owner, 'admin');
    const key = await createApiKey(a.app, admin);
    // B current first: a change it heard late (the admin's joining) would otherwise drop what it remembers next.
    await b.positions.caughtUp();
    for (const headers of [bearer(admin), { 'x-api-key': key }]) expect((await whoami(headers)).status).toBe(200);

    proxy.delay(DELAY_MS);
    const heard = service.nextChange((change) => change.kind === 'user' && change.userId === admin.userId);
    await request(a.app).delete(`${AUTH}/members/${admin.userId}`).set(bearer(owner)).expect(200);
    const change = await heard;
    expect(b.positions.current).toBeLessThan(change.position);
    expect((await introspectOnB({ token: admin.token })).body).toMatchObject({ active: false });
    expectError(await whoami(bearer(admin)), 401, 'Invalid or expired token');
    expectError(await whoami({ 'x-api-key': key }), 401, 'Invalid API key');

    // Long after, with B current and time moved on: still refused, nothing was kept from before the change.
    proxy.delay(0);
    await b.positions.caughtUp();
    nowMs += 10 * 60_000;
    expectError(await whoami(bearer(admin)), 401, 'Invalid or expired token');
    expectError(await whoami({ 'x-api-key': key }), 401, 'Invalid API key');
  });

  it('an answer B gives once it has caught up is remembered; no answer is used past its maximum age', async () => {
    const owner = await signupOwner(a.app);
    const member = await joinWithRole(a.app, owner, 'member');
    const other = await joinWithRole(a.app, owner, 'member');
    const rawKey = await tenantServiceKey(new KyselyServiceKeyRepository(a.db), owner.tenantId, 'remembered');
    const scoped = downstream(server.url, rawKey, { now: () => nowMs, timeoutMs: 10_000 });
    const whoamiScoped = (headers: Record<string, string>) => supertest(scoped.app).get('/whoami').set(headers);
    try {
      await scoped.auth.feedReady();
      const heard = scoped.nextChange((change) => change.kind === 'user' && change.userId === other.userId);
      await request(a.app).patch(`${AUTH}/members/${other.userId}`).set(bearer(owner)).send({ role: 'viewer' }).expect(200);
      await heard;

      const before = introspected();
      for (let i = 0; i < 3; i += 1) expect((await whoamiScoped(bearer(member))).status).toBe(200);
      expect(introspected()).toBe(before + 1);

      nowMs += 60_000; // the client's default maximum age
      expect((await whoamiScoped(bearer(member))).status).toBe(200);
      expect(introspected()).toBe(before + 2);
    } finally {
      scoped.auth.close();
    }
  });

  it('a revoked service key: its streams close on every instance as soon as each applies the change, and its next introspection is 401 there', async () => {
    const { key, rawKey } = await serviceKeyManager(new KyselyServiceKeyRepository(a.db)).create(`revoked-${process.pid}-${Date.now()}`, ALL_TENANTS);
    const owner = await signupOwner(a.app);
    const servers = [a, b].map((instance) => {
      const watched = watchChangeStreams(instance.app);
      return { instance, server: new RunningServer(watched.listener) };
    });
    try {
      for (const { server: each } of servers) await each.start();
      const introspect = (instance: DatabaseApp) => request(instance.app).post(`${AUTH}/introspect`).set('x-service-key', rawKey).send({ token: owner.token });
      for (const { instance } of servers) expect((await introspect(instance)).status).toBe(200); // trusted for a few seconds on each
      const streams = await Promise.all(servers.map(({ server: each }) => openRawChangeStream(each.url, rawKey)));
      for (const stream of streams) expect(await stream.until((event) => event.event === 'ready')).toBe(true);

      await serviceKeyManager(new KyselyServiceKeyRepository(a.db)).revoke(key.id); // as `npm run service-key -- revoke`
      // Within a bound far below B's heartbeat (15 s), at which the key would otherwise be checked again.
      const deadline = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3_000).unref());
      for (const stream of streams) {
        expect(await Promise.race([stream.until((event) => event.event === 'reset'), deadline])).toBe(true);
        await stream.ended;
      }
      for (const { instance } of servers) expectError(await introspect(instance), 401, 'Invalid or missing service key');
    } finally {
      for (const { server: each } of servers) await each.stop();
    }
  });

  it('a key scoped to one tenant hears only its changes and is answered active: false for another tenant\'s credential', async () => {
    const mine = await signupOwner(a.app);
    const theirs = await signupOwner(a.app);
    const myMember = await joinWithRole(a.app, mine, 'member');
    const theirMember = await joinWithRole(a.app, theirs, 'member');
    const rawKey = await tenantServiceKey(new KyselyServiceKeyRepository(a.db), mine.tenantId, 'scoped');
    const watched = new RunningServer(a.app);
    await watched.start();
    try {
      const stream = await openRawChangeStream(watched.url, rawKey);
      expect(await stream.until((event) => event.event === 'ready')).toBe(true);
      await request(a.app).delete(`${AUTH}/members/${theirMember.userId}`).set(bearer(theirs)).expect(200);
      await request(a.app).delete(`${AUTH}/members/${myMember.userId}`).set(bearer(mine)).expect(200);
      expect(await stream.until((event) => event.event === 'change' && dataOf(event).user_id === myMember.userId)).toBe(true);
      expect(stream.events.filter((event) => event.event === 'change').map((event) => dataOf(event).user_id)).toEqual([myMember.userId]);
      stream.close();

      const introspect = (body: object) => request(b.app).post(`${AUTH}/introspect`).set('x-service-key', rawKey).send(body);
      expect((await introspect({ token: mine.token })).body).toMatchObject({ active: true, tenant_id: mine.tenantId });
      expect((await introspect({ token: theirs.token })).body).toEqual({ active: false, position: expect.any(Number) });
    } finally {
      await watched.stop();
    }
  });

  it('one statement that revokes many keys reaches a stream as one write, each key once', async () => {
    const owner = await signupOwner(a.app);
    for (let i = 0; i < 20; i += 1) await createApiKey(a.app, owner);
    const rawKey = await tenantServiceKey(new KyselyServiceKeyRepository(a.db), owner.tenantId, 'one-write');
    const watched = watchChangeStreams(a.app);
    const front = new RunningServer(watched.listener);
    await front.start();
    try {
      const stream = await openRawChangeStream(front.url, rawKey);
      expect(await stream.until((event) => event.event === 'ready')).toBe(true);
      // Revoked, then expired, in one transaction: forty logged changes for twenty keys.
      await a.db.transaction().execute(async (trx) => {
        await trx.updateTable('api_keys').set({ revoked: true }).where('tenant_id', '=', owner.tenantId).execute();
        await trx.updateTable('api_keys').set({ expires_at: new Date() }).where('tenant_id', '=', owner.tenantId).execute();
      });
      expect(await stream.until(() => stream.events.filter((event) => event.event === 'change').length >= 20)).toBe(true);
      const writes = watched.streams[0]!.writes.filter((text) => text.startsWith('event: change'));
      expect(writes).toHaveLength(1);
      expect(writes[0]!.split('event: change\n')).toHaveLength(21);
      stream.close();
    } finally {
      await front.stop();
    }
  });
});
