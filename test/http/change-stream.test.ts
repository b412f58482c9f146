import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { request } from '../support/contract-request';
import type { CredentialChangeFanOut } from '../../src/adapters/cache/credential-change-fan-out';
import type { ChangeStreamLimits } from '../../src/adapters/http/verifiers/change-stream';
import { HttpMetrics } from '../../src/adapters/http/middleware/http-metrics';
import { MemoryServiceKeys } from '../../src/adapters/persistence/memory/memory-service-keys';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import type { LoggedChange } from '../../src/application/ports/credential-change-log';
import { ALL_TENANTS, namedTenants } from '../../src/domain/service-key';
import { dataOf, openRawChangeStream, type RawChangeStream, watchChangeStreams } from '../support/change-stream-client';
import { AUTH, bearer, createApiKey, expectError, joinWithRole, PASSWORD, signupOwner } from '../support/http-fixtures';
import { buildTestApp } from '../support/http-app';
import { RunningServer, serviceKeyManager } from '../support/verifier-fixtures';

const CHANGES = `${AUTH}/changes`;

/** Portcullis on memory storage, on a real port, its change streams watched; service keys revoked as an operator would. */
async function setup(limits: Partial<ChangeStreamLimits> = {}, changeHeartbeatMs = 50) {
  const storage = createMemoryStorage();
  const serviceKeys = new MemoryServiceKeys(storage.changeLog);
  const manage = serviceKeyManager(serviceKeys);
  const metrics = new HttpMetrics(new Registry());
  const built = await buildTestApp({}, { storage, serviceKeys }, { changeHeartbeatMs, changeStreamLimits: limits, metrics });
  const watched = watchChangeStreams(built.app);
  const server = new RunningServer(watched.listener);
  await server.start();
  const opened: RawChangeStream[] = [];
  const open = async (key: string) => {
    const stream = await openRawChangeStream(server.url, key);
    opened.push(stream);
    return stream;
  };
  const fanOut = built.useCases.credentialChanges as CredentialChangeFanOut;
  return {
    ...built, manage, metrics, server, streams: watched.streams, open, fanOut,
    close: async () => {
      for (const stream of opened) stream.close();
      await server.stop();
    },
  };
}

type Setup = Awaited<ReturnType<typeof setup>>;

const isReady = (event: { event: string }) => event.event === 'ready';
const isReset = (event: { event: string }) => event.event === 'reset';

describe('GET /api/v1/auth/changes', () => {
  let ctx: Setup;
  afterEach(async () => {
    await ctx?.close();
  });

  it('says where it starts (ready carries the instance\'s change position), and each change its own', async () => {
    ctx = await setup();
    const { rawKey } = await ctx.manage.create('reader', ALL_TENANTS);
    const owner = await signupOwner(ctx.app);
    const member = await joinWithRole(ctx.app, owner, 'member');
    await request(ctx.app).patch(`${AUTH}/members/${member.userId}`).set(bearer(owner)).send({ role: 'viewer' }).expect(200);
    const stream = await ctx.open(rawKey);
    expect(await stream.until(isReady)).toBe(true);
    const start = dataOf(stream.events[0]!).position as number;
    expect(start).toBeGreaterThanOrEqual(1);

    await request(ctx.app).delete(`${AUTH}/members/${member.userId}`).set(bearer(owner)).expect(200);
    expect(await stream.until((event) => event.event === 'change')).toBe(true);
    expect(dataOf(stream.events.find((event) => event.event === 'change')!)).toEqual({ kind: 'user', user_id: member.userId, position: start + 1 });
  });

  it('refuses a stream beyond the limit per service key, and beyond the limit of the instance, with 429 and a clear message', async () => {
    ctx = await setup({ perServiceKey: 2, perInstance: 3 });
    const { rawKey: busy } = await ctx.manage.create('busy', ALL_TENANTS);
    const { rawKey: quiet } = await ctx.manage.create('quiet', ALL_TENANTS);
    const first = await ctx.open(busy);
    await ctx.open(busy);
    expect([first.status]).toEqual([200]);

    const perKey = await request(ctx.app).get(CHANGES).set('x-service-key', busy);
    expectError(perKey, 429, 'Too many change streams for this service key');
    expect(perKey.headers['retry-after']).toBe('5');

    expect((await ctx.open(quiet)).status).toBe(200);
    expectError(await request(ctx.app).get(CHANGES).set('x-service-key', quiet), 429, 'Too many change streams on this instance');

    // A stream that ends frees its place.
    first.close();
    await first.ended;
    await new Promise((resolve) => setImmediate(resolve));
    const again = await ctx.open(busy);
    expect(again.status).toBe(200);
    expect(await again.until(isReady)).toBe(true);
    const text = await ctx.metrics.registry.metrics();
    expect(text).toContain('portcullis_change_streams_refused_total{reason="service_key"} 1');
    expect(text).toContain('portcullis_change_streams_refused_total{reason="instance"} 1');
  });

  it('closes with reset a stream whose reader stops reading once its unsent data passes the bound, and holds no more than that for it', async () => {
    const maxUnsentBytes = 16 * 1024;
    ctx = await setup({ maxUnsentBytes }, 60_000); // no heartbeat comes to cut the reader off before it reads again
    const { rawKey } = await ctx.manage.create('slow', ALL_TENANTS);
    const slow = await ctx.open(rawKey);
    expect(await slow.until(isReady)).toBe(true);
    slow.pause();

    const tenantId = randomUUID();
    let position = ctx.fanOut.position;
    let batches = 0;
    const batchBytes = 10 * 110;
    // Batches well under the bound, a turn of the event loop apart (so the socket takes what it can):
    // the sockets between the two fill up, and then the server would keep the rest, without a bound.
    while (ctx.fanOut.subscriberCount > 0 && batches < 30_000) { // 33 MB at most, several times what the sockets hold
      const batch: LoggedChange[] = Array.from({ length: 10 }, () => ({ position: (position += 1), kind: 'api-key', keyId: randomUUID(), tenantId }));
      ctx.fanOut.publish(batch, position);
      batches += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(ctx.fanOut.subscriberCount).toBe(0);
    const { res } = ctx.streams[0]!;
    expect(res.writableLength).toBeLessThanOrEqual(maxUnsentBytes + batchBytes);
    expect(await ctx.metrics.registry.metrics()).toContain('portcullis_change_streams_closed_total{reason="slow_reader"} 1');

    // The reader that reads again gets what was held for it, then reset, then the end.
    slow.resume();
    expect(await slow.until(isReset)).toBe(true);
    await slow.ended;
    expect(slow.events.at(-1)?.event).toBe('reset');
  });

  it('a reader that never reads again is cut off at the next heartbeat, and what was held for it let go', async () => {
    ctx = await setup({ maxUnsentBytes: 4 * 1024 });
    const { rawKey } = await ctx.manage.create('gone-quiet', ALL_TENANTS);
    const slow = await ctx.open(rawKey);
    expect(await slow.until(isReady)).toBe(true);
    slow.pause();
    const tenantId = randomUUID();
    let position = ctx.fanOut.position;
    for (let batches = 0; ctx.fanOut.subscriberCount > 0 && batches < 1_000; batches += 1) {
      const batch: LoggedChange[] = Array.from({ length: 100 }, () => ({ position: (position += 1), kind: 'user', userId: randomUUID(), tenantId }));
      ctx.fanOut.publish(batch, position);
    }
    expect(ctx.fanOut.subscriberCount).toBe(0);
    const { res } = ctx.streams[0]!;
    await new Promise<void>((resolve) => (res.destroyed ? resolve() : res.once('close', () => resolve())));
    expect(res.destroyed || res.writableFinished).toBe(true);
  });

  it('writes every change the instance read at once in one write, each member or key once', async () => {
    ctx = await setup();
    const { rawKey } = await ctx.manage.create('batched', ALL_TENANTS);
    const owner = await signupOwner(ctx.app);
    const admin = await joinWithRole(ctx.app, owner, 'admin');
    for (let i = 0; i < 3; i += 1) await createApiKey(ctx.app, admin);
    const stream = await ctx.open(rawKey);
    expect(await stream.until(isReady)).toBe(true);

    // Removing a member revokes their three keys, ends their session and removes them in one transaction: five changes.
    await request(ctx.app).delete(`${AUTH}/members/${admin.userId}`).set(bearer(owner)).expect(200);
    expect(await stream.until((event) => event.event === 'change' && dataOf(event).kind === 'user')).toBe(true);
    const changes = ctx.streams[0]!.writes.filter((text) => text.startsWith('event: change'));
    expect(changes).toHaveLength(1);
    expect(changes[0]!.split('event: change\n')).toHaveLength(6);

    // The same key named twice in one read is sent once, at its later position.
    const tenantId = randomUUID();
    const keyId = randomUUID();
    const at = ctx.fanOut.position;
    ctx.fanOut.publish([
      { position: at + 1, kind: 'api-key', keyId, tenantId },
      { position: at + 2, kind: 'user', userId: admin.userId, tenantId },
      { position: at + 3, kind: 'api-key', keyId, tenantId },
    ], at + 3);
    expect(await stream.until((event) => event.event === 'change' && dataOf(event).key_id === keyId)).toBe(true);
    const sent = stream.events.filter((event) => event.event === 'change').map(dataOf).filter((data) => (data.position as number) > at);
    expect(sent).toEqual([{ kind: 'user', user_id: admin.userId, position: at + 2 }, { kind: 'api_key', key_id: keyId, position: at + 3 }]);
  });

  it('a logout, and an admin ending a member\'s sessions, are on the stream: one session change per session ended', async () => {
    ctx = await setup();
    const { rawKey } = await ctx.manage.create('sessions', ALL_TENANTS);
    const owner = await signupOwner(ctx.app);
    const member = await joinWithRole(ctx.app, owner, 'member');
    const second = await request(ctx.app).post(`${AUTH}/login`).send({ email: member.email, password: PASSWORD }).expect(200);
    const sidOf = (token: string) => (jwt.decode(token) as { sid: string }).sid;
    const stream = await ctx.open(rawKey);
    expect(await stream.until(isReady)).toBe(true);

    await request(ctx.app).post(`${AUTH}/logout`).set(bearer(member)).expect(204);
    expect(await stream.until((event) => event.event === 'change' && dataOf(event).session_id === sidOf(member.token))).toBe(true);
    await request(ctx.app).delete(`${AUTH}/members/${member.userId}/sessions`).set(bearer(owner)).expect(200);
    expect(await stream.until((event) => event.event === 'change' && dataOf(event).session_id === sidOf(second.body.token as string))).toBe(true);
    const sent = stream.events.filter((event) => event.event === 'change').map(dataOf);
    expect(sent).toEqual([
      { kind: 'session', session_id: sidOf(member.token), position: expect.any(Number) },
      { kind: 'session', session_id: sidOf(second.body.token as string), position: expect.any(Number) },
    ]);
  });

  it('a service key scoped to named tenants hears only their changes', async () => {
    ctx = await setup();
    const mine = await signupOwner(ctx.app);
    const theirs = await signupOwner(ctx.app);
    const myMember = await joinWithRole(ctx.app, mine, 'member');
    const theirMember = await joinWithRole(ctx.app, theirs, 'member');
    const { rawKey: scoped } = await ctx.manage.create('scoped', namedTenants([mine.tenantId]));
    const { rawKey: everyone } = await ctx.manage.create('everyone', ALL_TENANTS);
    const scopedStream = await ctx.open(scoped);
    const fullStream = await ctx.open(everyone);
    expect(await scopedStream.until(isReady)).toBe(true);
    expect(await fullStream.until(isReady)).toBe(true);

    await request(ctx.app).delete(`${AUTH}/members/${theirMember.userId}`).set(bearer(theirs)).expect(200);
    await request(ctx.app).delete(`${AUTH}/members/${myMember.userId}`).set(bearer(mine)).expect(200);
    expect(await scopedStream.until((event) => event.event === 'change' && dataOf(event).user_id === myMember.userId)).toBe(true);
    expect(await fullStream.until((event) => event.event === 'change' && dataOf(event).user_id === myMember.userId)).toBe(true);
    const heard = (stream: RawChangeStream) => stream.events.filter((event) => event.event === 'change' && dataOf(event).kind === 'user').map((event) => dataOf(event).user_id);
    expect(heard(scopedStream)).toEqual([myMember.userId]);
    expect(heard(fullStream)).toEqual([theirMember.userId, myMember.userId]);
  });

  it('a session\'s end is sent as a session change, once per batch, and only to service keys that see its tenant', async () => {
    ctx = await setup();
    const mine = randomUUID();
    const theirs = randomUUID();
    const { rawKey: scoped } = await ctx.manage.create('scoped', namedTenants([mine]));
    const { rawKey: everyone } = await ctx.manage.create('everyone', ALL_TENANTS);
    const scopedStream = await ctx.open(scoped);
    const fullStream = await ctx.open(everyone);
    expect(await scopedStream.until(isReady)).toBe(true);
    expect(await fullStream.until(isReady)).toBe(true);

    const [ended, endedTwice, theirsEnded] = [randomUUID(), randomUUID(), randomUUID()];
    const at = ctx.fanOut.position;
    ctx.fanOut.publish([
      { position: at + 1, kind: 'session', sessionId: endedTwice, tenantId: mine },
      { position: at + 2, kind: 'session', sessionId: theirsEnded, tenantId: theirs },
      { position: at + 3, kind: 'session', sessionId: ended, tenantId: mine },
      { position: at + 4, kind: 'session', sessionId: endedTwice, tenantId: mine },
    ], at + 4);
    const last = (event: { event: string; data: string }) => event.event === 'change' && dataOf(event).position === at + 4;
    expect(await scopedStream.until(last)).toBe(true);
    expect(await fullStream.until(last)).toBe(true);
    const sent = (stream: RawChangeStream) => stream.events.filter((event) => event.event === 'change').map(dataOf);
    expect(sent(scopedStream)).toEqual([
      { kind: 'session', session_id: ended, position: at + 3 },
      { kind: 'session', session_id: endedTwice, position: at + 4 },
    ]);
    expect(sent(fullStream)).toEqual([
      { kind: 'session', session_id: theirsEnded, position: at + 2 },
      { kind: 'session', session_id: ended, position: at + 3 },
      { kind: 'session', session_id: endedTwice, position: at + 4 },
    ]);
  });

  it('a revoked service key: its streams are sent reset and closed at once, its next introspection is 401, other keys carry on', async () => {
    ctx = await setup({}, 60_000); // no heartbeat comes to check the key again: the revocation itself must close the streams
    const { key, rawKey } = await ctx.manage.create('revoked', ALL_TENANTS);
    const { rawKey: other } = await ctx.manage.create('other', ALL_TENANTS);
    const owner = await signupOwner(ctx.app);
    const introspect = (serviceKey: string) => request(ctx.app).post(`${AUTH}/introspect`).set('x-service-key', serviceKey).send({ token: owner.token });
    expect((await introspect(rawKey)).status).toBe(200); // now trusted for a few seconds without a lookup
    const streams = [await ctx.open(rawKey), await ctx.open(rawKey)];
    const otherStream = await ctx.open(other);
    for (const stream of [...streams, otherStream]) expect(await stream.until(isReady)).toBe(true);

    await ctx.manage.revoke(key.id);
    for (const stream of streams) {
      expect(await stream.until(isReset)).toBe(true);
      await stream.ended;
    }
    expectError(await introspect(rawKey), 401, 'Invalid or missing service key');
    expect((await introspect(other)).status).toBe(200);
    expect(otherStream.events.some(isReset)).toBe(false);
    expect(await ctx.metrics.registry.metrics()).toContain('portcullis_change_streams_closed_total{reason="service_key"} 2');
  });
});
