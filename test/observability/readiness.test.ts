import { sql } from 'kysely';
import { request } from '../support/contract-request';
import { openPglite } from '../../src/adapters/persistence/kysely/driver/dialects';
import { migrations } from '../../src/adapters/persistence/kysely/migrations';
import { pendingMigrations } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { readinessProbe, type ReadinessParts } from '../../src/bootstrap/readiness';
import { buildTestApp } from '../support/http-app';
import { ownerView } from '../support/owner-view';
import { assertPgliteCanLoadInJest, servingTestPglite } from '../support/pglite';

function parts(overrides: Partial<ReadinessParts> = {}): ReadinessParts {
  return { isShuttingDown: () => false, pendingMigrations: async () => [], timeoutMs: 200, ...overrides };
}

const never = () => new Promise<never>(() => undefined);

describe('GET /healthz and GET /readyz', () => {
  it('healthz: 200 without asking any dependency, even when the database is down', async () => {
    const pending = jest.fn(async () => { throw new Error('down'); });
    const { app } = await buildTestApp({}, {}, { readiness: readinessProbe(parts({ pendingMigrations: pending })) });
    const res = await request(app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(pending).not.toHaveBeenCalled();
  });

  it('readyz: 200 when the database answers with every migration, and Redis answers', async () => {
    const { app } = await buildTestApp({}, {}, { readiness: readinessProbe(parts({ pingRedis: async () => 'PONG' })) });
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', redis: 'ok' } });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it.each([
    ['the database refuses', parts({ pendingMigrations: async () => { throw new Error('ECONNREFUSED'); } }), { database: 'unavailable' }],
    ['the database does not answer', parts({ pendingMigrations: never }), { database: 'unavailable' }],
    ['a migration is missing', parts({ pendingMigrations: async () => ['0002-tenant-walls'] }), { database: 'ok', migrations: 'pending: 0002-tenant-walls' }],
    ['Redis does not answer', parts({ pingRedis: never }), { database: 'ok', migrations: 'ok', redis: 'unavailable' }],
    ['the instance is shutting down', parts({ isShuttingDown: () => true }), { shutdown: 'in progress' }],
  ])('readyz: 503 with Retry-After when %s', async (_name, probeParts, checks) => {
    const { app } = await buildTestApp({}, {}, { readiness: readinessProbe(probeParts) });
    const started = Date.now();
    const res = await request(app).get('/readyz');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'Service unavailable', status: 'not ready', checks });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('neither is rate limited nor authenticated', async () => {
    const { app } = await buildTestApp({ rateLimits: { global: 1, login: 1, signup: 1 } }, {}, { readiness: readinessProbe(parts()) });
    for (let i = 0; i < 5; i += 1) {
      expect((await request(app).get('/healthz')).status).toBe(200);
      expect((await request(app).get('/readyz')).status).toBe(200);
    }
  });

  it('a burst of probes shares one check', async () => {
    const pending = jest.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return [];
    });
    const { app } = await buildTestApp({}, {}, { readiness: readinessProbe(parts({ pendingMigrations: pending })) });
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(app).get('/readyz')));
    expect(answers.every((res) => res.status === 200)).toBe(true);
    expect(pending.mock.calls.length).toBeLessThan(10);
  });
});

describe('pendingMigrations (the readiness query, run as the app role)', () => {
  beforeAll(() => assertPgliteCanLoadInJest());

  it('is empty on a migrated database, names a migration whose record is gone, and everything on a database never migrated', async () => {
    const serving = await servingTestPglite();
    try {
      expect(await pendingMigrations(serving.db)).toEqual([]);
      const owner = ownerView(serving.db);
      await sql`delete from kysely_migration where name = '0002-tenant-walls'`.execute(owner);
      expect(await pendingMigrations(serving.db)).toEqual(['0002-tenant-walls']);
      // Asked as the app role, which may not read Kysely's table itself.
      const { rows } = await sql<{ role: string }>`select current_user as role`.execute(serving.db);
      expect(rows[0]!.role).toBe('portcullis_app');
      await expect(sql`select name from kysely_migration`.execute(serving.db)).rejects.toMatchObject({ code: '42501' });
    } finally {
      await serving.close();
    }
    const blank = await openPglite('memory://');
    try {
      expect(await pendingMigrations(blank.db)).toEqual(Object.keys(migrations));
    } finally {
      await blank.close();
    }
  }, 120_000); // two embedded databases start here, each taking seconds on a busy machine
});
