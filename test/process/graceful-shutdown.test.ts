import { Client } from 'pg';
import { uniqueRedisPrefix } from '../support/redis';
import { ServiceProcess } from '../support/service-process';
import { uniqueEmail } from '../support/test-use-cases';
import { get, post, RawConnection, refusesConnections } from './raw-http';

const AUTH = '/api/v1/auth';
const PASSWORD = 'correct horse battery';

/** Postgres and Redis when the run has them (so their closing is shown too), else PGlite and in-process counters. */
function backends(): Record<string, string> {
  const env: Record<string, string> = {};
  if (process.env['DATABASE_URL']) env['DATABASE_URL'] = process.env['DATABASE_URL'];
  if (process.env['REDIS_URL']) {
    env['REDIS_URL'] = process.env['REDIS_URL'];
    env['REDIS_KEY_PREFIX'] = uniqueRedisPrefix('shutdown');
  }
  return env;
}

const hasMessage = (text: string) => (line: { msg?: string }) => line.msg === text;

/**
 * Resolves once the service has read what was written to it before: a request on a fresh
 * connection, answered by the same event loop, which takes in every socket that is readable when it
 * polls (on loopback, bytes written earlier are readable before the later request's), so the earlier
 * request's head has been parsed by then. No fixed sleep, however slow the machine.
 */
async function serviceHasRead(port: number): Promise<void> {
  const marker = await RawConnection.open(port);
  marker.write(get('/healthz'));
  expect((await marker.response()).status).toBe(200);
  marker.socket.destroy();
}

describe('graceful shutdown of the real process', () => {
  let service: ServiceProcess | undefined;
  afterEach(() => service?.kill());

  it('SIGTERM: readiness 503, then no new connections, idle keep-alive closed, the login in flight completes, resources closed, exit 0 within the grace period', async () => {
    const graceMs = 15_000;
    service = await ServiceProcess.start({ ...backends(), SHUTDOWN_DELAY_MS: '1500', SHUTDOWN_GRACE_MS: String(graceMs) });
    const { port } = service;
    const email = uniqueEmail('shutdown');
    const signup = await fetch(`${service.url}${AUTH}/signup`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD, tenant_name: 'Drain' }),
    });
    expect(signup.status).toBe(201);
    // An API key used once: its use is gathered in memory, to be written within the minute or at shutdown.
    const { token } = (await signup.json()) as { token: string };
    const created = await fetch(`${service.url}${AUTH}/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(created.status).toBe(201);
    const key = (await created.json()) as { id: string; api_key: string };
    expect((await fetch(`${service.url}${AUTH}/me`, { headers: { 'x-api-key': key.api_key } })).status).toBe(200);

    // An idle keep-alive connection, and a login whose body has not fully arrived yet.
    const idle = await RawConnection.open(port);
    idle.write(get('/healthz'));
    expect((await idle.response()).status).toBe(200);
    const login = post(`${AUTH}/login`, { email, password: PASSWORD });
    const inFlight = await RawConnection.open(port);
    inFlight.write(login.head + login.body.slice(0, -1));
    await serviceHasRead(port);

    const signalledAt = Date.now();
    service.signal('SIGTERM');
    const started = await service.waitForLog(hasMessage('shutting down: readiness now 503'));
    expect(started.inFlight).toBe(1);

    // 1. During the delay: still accepting, but not ready, and every answer says Connection: close.
    const probe = await RawConnection.open(port);
    probe.write(get('/readyz'));
    const readiness = await probe.response();
    expect(readiness.status).toBe(503);
    expect(JSON.parse(readiness.body)).toEqual({ error: 'Service unavailable', status: 'not ready', checks: { shutdown: 'in progress' } });
    expect(readiness.headers['connection']).toBe('close');
    expect(Date.now() - signalledAt).toBeLessThan(1500);

    // 2. After it: no new connections, and the idle keep-alive connection is closed by the server.
    await service.waitForLog(hasMessage('stopped accepting connections'));
    expect(await refusesConnections(port)).toBe(true);
    await idle.closed;
    expect(inFlight.isClosed).toBe(false);

    // 3. The login in flight completes, and its connection is then closed.
    inFlight.write(login.body.slice(-1));
    const answer = await inFlight.response();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ token: expect.any(String), expires_in: '24h' });
    expect(answer.headers['connection']).toBe('close');
    await inFlight.closed;

    // 4. Resources closed, exit 0 within the grace period.
    const exit = await service.exited;
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - signalledAt).toBeLessThan(graceMs);
    const closed = service.logs.filter((line) => line.resource).map((line) => line.msg);
    // Reverse order of opening: the metrics server (production serves metrics on a port of their
    // own), the sessions' last seen and the key usage gathered (written before the database closes),
    // the change listener, the database, Redis.
    const opened = ['closed metrics server', 'closed session activity', 'closed api key usage', 'closed credential listener', 'closed database'];
    expect(closed).toEqual(process.env['REDIS_URL'] ? [...opened, 'closed redis'] : opened);
    if (process.env['DATABASE_URL']) {
      const client = new Client({ connectionString: process.env['DATABASE_URL'] });
      await client.connect();
      try {
        const { rows } = await client.query<{ last_used_at: Date | null }>('select last_used_at from api_keys where id = $1', [key.id]);
        expect(rows[0]?.last_used_at).toBeInstanceOf(Date);
      } finally {
        await client.end();
      }
    }
    // The last line, written after every other: the log is flushed in order before the exit.
    expect(service.logs.at(-1)).toMatchObject({ msg: 'shutdown complete', drained: true, closed: true });
  }, 120_000);

  it('SIGINT with a request that never completes: cut at the grace period, resources still closed, exit 1 soon after', async () => {
    const graceMs = 2_000;
    service = await ServiceProcess.start({ ...backends(), SHUTDOWN_GRACE_MS: String(graceMs) });
    const stuck = await RawConnection.open(service.port);
    const login = post(`${AUTH}/login`, { email: uniqueEmail('stuck'), password: PASSWORD });
    stuck.write(login.head); // the body never comes
    await serviceHasRead(service.port);

    const signalledAt = Date.now();
    service.signal('SIGINT');
    const closedAt = await stuck.closed;
    expect(closedAt - signalledAt).toBeGreaterThanOrEqual(graceMs - 100);
    const exit = await service.exited;
    expect(exit).toMatchObject({ code: 1, signal: null });
    expect(exit.at - signalledAt).toBeLessThan(graceMs + 5_000);
    expect(service.logs.find(hasMessage('shutdown: grace period over, closing the remaining connections'))).toMatchObject({ inFlight: 1 });
    expect(service.logs.some(hasMessage('closed database'))).toBe(true);
    expect(service.logs.find(hasMessage('shutdown complete, not cleanly'))).toMatchObject({ drained: false, closed: true });
  }, 120_000);
});
