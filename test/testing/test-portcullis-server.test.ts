import supertest from 'supertest';
import { request } from '../support/contract-request';
import { DownstreamDidNotFollow, startTestPortcullis, type TestPortcullisServer } from '../../src/testing';
import { type Downstream, downstream } from '../support/verifier-fixtures';

const AUTH = '/api/v1/auth';
const UNKNOWN_SERVICE_KEY = `pcsk_${'0'.repeat(64)}`;

/** The change stream as a verifier reads it, raw: the text received so far, and more on demand. */
async function openChangeStream(pc: TestPortcullisServer, serviceKey: string) {
  const abort = new AbortController();
  const res = await fetch(`${pc.url}${AUTH}/changes`, { headers: { 'x-service-key': serviceKey }, signal: abort.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    status: res.status,
    /** Reads until the text received contains `wanted`; false if the stream ended first. */
    async until(wanted: string): Promise<boolean> {
      while (!text.includes(wanted)) {
        const { done, value } = await reader.read();
        if (done) return false;
        text += decoder.decode(value, { stream: true });
      }
      return true;
    },
    close: () => abort.abort(),
  };
}

/** Sockets, servers and timers held open: what keeps Jest from exiting. */
function openHandles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    if (['TCPServerWrap', 'TCPSocketWrap', 'Timeout'].includes(kind)) counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** Node lets go of a closed handle over the next few turns of the event loop: the handles once no socket is left. */
async function handlesOnceSocketsClosed(): Promise<Record<string, number>> {
  const sockets = () => process.getActiveResourcesInfo().filter((kind) => kind.startsWith('TCP')).length;
  for (let turn = 0; turn < 100 && sockets() > 0; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  return openHandles();
}

describe('startTestPortcullis: the kit as a Portcullis over HTTP', () => {
  let pc: TestPortcullisServer;
  beforeEach(async () => {
    pc = await startTestPortcullis({ changeHeartbeatMs: 100 });
  });
  afterEach(async () => {
    expect(pc.unexpectedErrors).toEqual([]);
    await pc.close();
  });

  it('answers introspection only with a service key it made and has not revoked, 401 otherwise', async () => {
    const owner = (await pc.tenant()).owner;
    const serviceKey = await pc.serviceKey();
    const introspect = (headers: Record<string, string>) => request(pc.url).post(`${AUTH}/introspect`).set(headers).send({ token: owner.token });

    for (const headers of [{}, { 'x-service-key': UNKNOWN_SERVICE_KEY }] as Array<Record<string, string>>) {
      const refused = await introspect(headers);
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: { error: 'Invalid or missing service key' } });
    }
    expect((await introspect({ 'x-service-key': serviceKey })).body)
      .toEqual({
        active: true, position: 0, tenant_id: owner.tenantId, user_id: owner.userId, role: 'owner', method: 'jwt', exp: expect.any(Number), session_id: owner.sessionId, amr: ['pwd'],
      });

    await pc.revokeServiceKey(serviceKey);
    expect((await introspect({ 'x-service-key': serviceKey })).status).toBe(401);
  });

  it('makes a service key scoped to named tenants, as a real one can be: other tenants\' credentials are active: false', async () => {
    const mine = await pc.tenant();
    const theirs = await pc.tenant();
    const scoped = await pc.serviceKey('scoped', { tenants: [mine.tenantId] });
    const introspect = (token: string) => request(pc.url).post(`${AUTH}/introspect`).set('x-service-key', scoped).send({ token });
    expect((await introspect(mine.owner.token)).body).toMatchObject({ active: true, tenant_id: mine.tenantId });
    expect((await introspect(theirs.owner.token)).body).toEqual({ active: false, position: expect.any(Number) });
  });

  it('carries a change made with the kit on the change stream, and ends the stream when its service key is revoked', async () => {
    const key = await pc.apiKey((await pc.tenant()).owner);
    const serviceKey = await pc.serviceKey();
    const stream = await openChangeStream(pc, serviceKey);
    try {
      expect(stream.status).toBe(200);
      expect(await stream.until('event: ready')).toBe(true);
      expect(pc.openChangeStreams).toBe(1);

      await pc.revokeApiKey(key);
      expect(await stream.until(`event: change\ndata: {"kind":"api_key","key_id":"${key.id}","position":1}`)).toBe(true);

      await pc.revokeServiceKey(serviceKey);
      expect(pc.openChangeStreams).toBe(0); // closed as the revocation returns, not at the next heartbeat
      expect(await stream.until('event: reset')).toBe(true);
      expect(await stream.until('never sent')).toBe(false);
    } finally {
      stream.close();
    }
  });
});

describe('close()', () => {
  it('ends the change streams and the server: no socket, server or timer is left open', async () => {
    // Counted, not required to be none: another test file of this worker may still be letting go of its own.
    const before = await handlesOnceSocketsClosed();
    const pc = await startTestPortcullis({ changeHeartbeatMs: 50 });
    const service = downstream(pc.url, await pc.serviceKey());
    await service.auth.feedReady();
    expect(openHandles()).not.toEqual(before);

    const down = service.nextFeed(false);
    await pc.close();
    await down;
    service.auth.close();
    const after = await handlesOnceSocketsClosed();
    expect(after.TCPServerWrap ?? 0).toBeLessThanOrEqual(before.TCPServerWrap ?? 0);
    expect(after.TCPSocketWrap ?? 0).toBeLessThanOrEqual(before.TCPSocketWrap ?? 0);
    // Timers of earlier tests may run out meanwhile: none may have been added (the streams' heartbeats).
    expect(after.Timeout ?? 0).toBeLessThanOrEqual(before.Timeout ?? 0);
  });
});

describe('refusedAfter and seenAfter: a change, then the downstream\'s answer once it has heard it', () => {
  let pc: TestPortcullisServer;
  let service: Downstream;
  beforeEach(async () => {
    pc = await startTestPortcullis();
    service = downstream(pc.url, await pc.serviceKey());
    await service.auth.feedReady();
  });
  afterEach(async () => {
    service.auth.close();
    await pc.close();
  });

  const whoami = (headers: Record<string, string>) => () => supertest(service.app).get('/whoami').set(headers);

  it('resolves with the refusal of a credential the downstream admitted (and remembered) before', async () => {
    const key = await pc.apiKey((await pc.tenant()).owner);
    const heard = service.nextChange((change) => change.kind === 'api_key' && change.keyId === key.id);
    const refused = await pc.refusedAfter(() => pc.revokeApiKey(key), whoami(key.headers));
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: { error: 'Invalid API key' } });
    await expect(heard).resolves.toEqual({ kind: 'api_key', keyId: key.id, position: expect.any(Number) });
  });

  it('waits while the downstream has not heard the change yet, asking again turn by turn', async () => {
    const key = await pc.apiKey((await pc.tenant()).owner);
    let changed = false;
    let lagging = 3; // a downstream that reads its stream three probes late
    const probe = async () => (changed && lagging-- > 0 ? { status: 200 } : whoami(key.headers)());
    const refused = await pc.refusedAfter(async () => {
      await pc.revokeApiKey(key);
      changed = true;
    }, probe);
    expect(refused.status).toBe(401);
    expect(lagging).toBeLessThan(0);
  });

  it('cannot pass while the downstream still admits the credential: it fails with the answer it kept giving', async () => {
    const key = await pc.apiKey((await pc.tenant()).owner);
    const stillAdmits = async () => ({ status: 200, body: { role: 'owner' } }); // a downstream that never forgets
    const failure = pc.refusedAfter(() => pc.revokeApiKey(key), stillAdmits, { timeoutMs: 100 });
    await expect(failure).rejects.toThrow(DownstreamDidNotFollow);
    await expect(failure).rejects.toThrow(/still answered 200 \{"role":"owner"\} to \d+ probes over 100 ms after the change reached its 1 open change stream/);
    expect((await request(pc.app).get(`${AUTH}/me`).set(key.headers)).status).toBe(401); // the revocation itself did happen
  });

  it('refuses to start from a probe that proves nothing: refused already, or neither admitted nor refused', async () => {
    const owner = (await pc.tenant()).owner;
    const key = await pc.revokedApiKey(owner);
    await expect(pc.refusedAfter(() => pc.removeMember(owner), whoami(key.headers))).rejects.toThrow(/already answered 401 .* before the change/);
    const missing = () => supertest(service.app).get('/no-such-route').set(owner.headers);
    await expect(pc.refusedAfter(() => pc.revokeApiKey(key), missing)).rejects.toThrow(/answered 404 .*neither admitted nor refused/);
  });

  it('fails at once when the change puts nothing on the stream, or when no downstream follows the stream', async () => {
    const owner = (await pc.tenant()).owner;
    await expect(pc.refusedAfter(async () => undefined, whoami(owner.headers))).rejects.toThrow(/put nothing on the change streams/);
    const unfollowed = await startTestPortcullis();
    try {
      const alone = (await unfollowed.tenant()).owner;
      const me = () => request(unfollowed.app).get(`${AUTH}/me`).set(alone.headers);
      await expect(unfollowed.refusedAfter(() => unfollowed.removeMember(alone), me)).rejects.toThrow(/no change stream is open/);
    } finally {
      await unfollowed.close();
    }
  });

  it('fails at once on an answer that is neither the old one nor the one expected', async () => {
    const owner = (await pc.tenant()).owner;
    const admitted = (res: { status: number }) => res.status === 204;
    await expect(pc.seenAfter(() => pc.close(), whoami(owner.headers), admitted)).rejects.toThrow(/answered 503 .*neither its answer before \(200/);
  });
});
