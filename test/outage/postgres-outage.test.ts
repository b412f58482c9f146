import { buildTestApp } from '../support/http-app';
import type { RequestListener } from 'node:http';
import { type Kysely, sql } from 'kysely';
import type { Response } from 'supertest';
import { request } from '../support/contract-request';
import { StorageUnavailable } from '../../src/application/ports/storage-unavailable';
import { BatchedApiKeyUsage } from '../../src/adapters/cache/batched-api-key-usage';
import { openPostgres, type OpenDatabase } from '../../src/adapters/persistence/kysely/driver/dialects';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import { SystemClock } from '../../src/adapters/time/system-clock';
import { openStorage, type OpenedStorage } from '../../src/bootstrap/database';
import { readinessProbe } from '../../src/bootstrap/readiness';
import { AUTH, bearer, createApiKey, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';
import { expectAuthenticationUnavailable, expectServiceUnavailable } from '../support/http-app';
import { describeIfPostgres } from '../support/postgres';
import { postgresTarget, TcpProxy, throughPort } from '../support/tcp-proxy';
import { uniqueEmail } from '../support/test-use-cases';

const CONNECT_TIMEOUT_MS = 1_000;
const STATEMENT_TIMEOUT_MS = 1_500;
/** "Within a few seconds": the longest a request may take to be refused while the database is away. */
const ANSWER_WITHIN_MS = 5_000;

async function timed(send: () => PromiseLike<Response>): Promise<{ res: Response; ms: number }> {
  const started = Date.now();
  const res = await send();
  return { res, ms: Date.now() - started };
}

describeIfPostgres('Postgres outage, cut for real through a TCP proxy', (url) => {
  let proxy: TcpProxy;
  let opened: OpenedStorage;
  let owner: OpenDatabase;
  let app: RequestListener;
  let keyUsage: BatchedApiKeyUsage;
  let shuttingDown = false;
  const logged: unknown[] = [];
  const backgroundErrors: unknown[] = [];
  const idleErrors: Error[] = [];
  let account: Account;
  let apiKey: string;

  beforeAll(async () => {
    proxy = await TcpProxy.start(postgresTarget(url));
    opened = await openStorage({
      databaseUrl: throughPort(url, proxy.listeningPort),
      pgliteDir: 'unused',
      database: { poolMax: 5, connectTimeoutMs: CONNECT_TIMEOUT_MS, statementTimeoutMs: STATEMENT_TIMEOUT_MS },
    }, (error) => idleErrors.push(error));
    owner = openPostgres(url, { max: 2 }); // straight to Postgres, to see what is really stored
    // As main: the key's uses gathered are written before the pool closes, not into a closed one later.
    keyUsage = new BatchedApiKeyUsage(opened.storage.repos.apiKeys, new SystemClock(), () => undefined);
    // Nothing listening for changes: what the instance answers is decided by the requests alone.
    ({ app } = await buildTestApp({}, { opened: { ...opened, listenForChanges: undefined }, keyUsage }, {
      onError: (error) => logged.push(error),
      onBackgroundError: (error) => backgroundErrors.push(error),
      readiness: readinessProbe({ isShuttingDown: () => shuttingDown, pendingMigrations: opened.pendingMigrations, timeoutMs: 3_000 }),
    }));
    account = await signupOwner(app, 'Outage');
    apiKey = await createApiKey(app, account);
  });

  afterEach(async () => {
    await proxy.restore();
  });

  afterAll(async () => {
    await keyUsage.close();
    await proxy.close();
    await opened.storage.close();
    await owner.close();
  });

  const databaseRoutes = (): Array<[string, () => PromiseLike<Response>]> => [
    ['signup', () => request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail('down'), password: PASSWORD, tenant_name: 'Down' })],
    ['login', () => request(app).post(`${AUTH}/login`).send({ email: account.email, password: PASSWORD })],
  ];
  /**
   * On Postgres every credential check first confirms that the instance has applied every change
   * committed before the request; cut off, it cannot, and refuses rather than answer from memory.
   */
  const protectedRoutes = (): Array<[string, () => PromiseLike<Response>]> => [
    ['GET /invites', () => request(app).get(`${AUTH}/invites`).set(bearer(account))],
    ['API key authentication', () => request(app).get(`${AUTH}/me`).set('x-api-key', apiKey)],
    ['bearer token authentication', () => request(app).get(`${AUTH}/me`).set(bearer(account))],
  ];

  async function expectRecovered(): Promise<void> {
    const ready = await request(app).get('/readyz');
    expect(ready.status).toBe(200);
    expect((await request(app).get(`${AUTH}/invites`).set(bearer(account))).status).toBe(200);
    expect((await request(app).get(`${AUTH}/me`).set('x-api-key', apiKey)).status).toBe(200);
    expect((await request(app).post(`${AUTH}/login`).send({ email: account.email, password: PASSWORD })).status).toBe(200);
  }

  it('connection refused: every route that needs the database answers 503 with Retry-After within seconds; the rest still works; recovery without a restart', async () => {
    await proxy.cut();
    const loggedBefore = logged.length;
    const backgroundBefore = backgroundErrors.length;
    for (const [name, send] of databaseRoutes()) {
      const { res, ms } = await timed(send);
      expect({ name, status: res.status }).toEqual({ name, status: 503 });
      expectServiceUnavailable(res);
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    }
    for (const [name, send] of protectedRoutes()) {
      const { res, ms } = await timed(send);
      expect({ name, status: res.status }).toEqual({ name, status: 503 });
      expectAuthenticationUnavailable(res);
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    }
    // Each refusal reaches the error log (operators must see an outage) as what it is, with the driver's error as its cause;
    // the freshness check's failure is logged once for the outage, not once per request.
    const reported = logged.slice(loggedBefore);
    expect(reported).toHaveLength(databaseRoutes().length);
    for (const error of [...reported, ...backgroundErrors.slice(backgroundBefore)]) {
      expect(error).toBeInstanceOf(StorageUnavailable);
      expect((error as Error).cause).toBeDefined();
    }
    expect(backgroundErrors.length - backgroundBefore).toBe(1);
    // Liveness asks nothing: it is not disturbed.
    expect((await request(app).get('/healthz')).status).toBe(200);
    const readiness = await request(app).get('/readyz');
    expect(readiness.status).toBe(503);
    expect(readiness.body).toEqual({ error: 'Service unavailable', status: 'not ready', checks: { database: 'unavailable' } });

    await proxy.restore();
    await expectRecovered();
  }, 60_000);

  it('a partition (nothing answers, nothing is refused): pooled and new connections alike give up within seconds, then recover', async () => {
    // Warm the pool, so both a pooled connection (statement timeout) and a new one (connect timeout) are met.
    await Promise.all(Array.from({ length: 5 }, () => request(app).get(`${AUTH}/invites`).set(bearer(account))));
    proxy.hang();
    const answers = await Promise.all(Array.from({ length: 8 }, () => timed(() => request(app).get(`${AUTH}/invites`).set(bearer(account)))));
    for (const { res, ms } of answers) {
      expectAuthenticationUnavailable(res);
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    }
    const readiness = await timed(() => request(app).get('/readyz'));
    expect(readiness.res.status).toBe(503);
    expect(readiness.ms).toBeLessThan(ANSWER_WITHIN_MS);

    await proxy.restore();
    // Connections that timed out may still be finishing their abandoned statements: allow a few tries.
    await eventually(expectRecovered);
  }, 60_000);

  it('cut in the middle of a signup transaction: 503, and nothing of it is kept (no tenant without its user); the same signup then succeeds', async () => {
    const email = uniqueEmail('halfway');
    const tenantName = `Halfway ${email}`;
    const cutDone = proxy.cutWhenClientSends('insert into "users"');
    const res = await request(app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: tenantName });
    await cutDone;
    expectServiceUnavailable(res);
    expect(await tenantsNamed(owner.db, tenantName)).toBe(0);
    expect(await usersWithEmail(owner.db, email)).toBe(0);

    await proxy.restore();
    const again = await request(app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: tenantName });
    expect(again.status).toBe(201);
    expect(await tenantsNamed(owner.db, tenantName)).toBe(1);
    expect(await usersWithEmail(owner.db, email)).toBe(1);
  }, 60_000);

});

async function tenantsNamed(db: Kysely<DB>, name: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from tenants where name = ${name}`.execute(db);
  return Number(rows[0]!.n);
}

async function usersWithEmail(db: Kysely<DB>, email: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from users where email = ${email}`.execute(db);
  return Number(rows[0]!.n);
}

async function eventually(check: () => Promise<void>, attempts = 10): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await check();
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
