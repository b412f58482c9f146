import { randomBytes, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { Client } from 'pg';
import type { CredentialChangeLog, LoggedChange } from '../../src/application/ports/credential-change-log';
import type { CredentialChange } from '../../src/application/ports/credential-states';
import type { ServiceKeyRepository } from '../../src/application/ports/service-keys';
import { openPostgres } from '../../src/adapters/persistence/kysely/driver/dialects';
import { migrateAll } from '../../src/adapters/persistence/modules/module-migrations';
import { openServingPostgres } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { CREDENTIAL_CHANGES_CHANNEL } from '../../src/adapters/persistence/kysely/change-feed/credential-announcements';
import { APP_ROLE } from '../../src/adapters/persistence/kysely/migrations/0002-tenant-walls';
import {
  CHANGE_LOG_TABLE, FORGET_EVERY_CREDENTIAL, PRUNE_CHANGES_SUBJECT, PRUNE_CREDENTIAL_CHANGES, READ_CHANGES_SUBJECT, READ_CREDENTIAL_CHANGES,
} from '../../src/adapters/persistence/kysely/migrations/0010-credential-change-log';
import { READ_CHANGE_HEAD } from '../../src/adapters/persistence/kysely/migrations/0015-credential-change-head';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/repositories/kysely-storage';
import { DEVELOPMENT_TENANT_WALL_KEY, TenantWalls } from '../../src/adapters/persistence/kysely/driver/tenant-walls';
import { KyselyServiceKeyRepository } from '../../src/adapters/persistence/kysely/repositories/service-key-repository';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import { MemoryServiceKeys } from '../../src/adapters/persistence/memory/memory-service-keys';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import type { Storage } from '../../src/adapters/persistence/storage';
import { ALL_TENANTS } from '../../src/domain/service-key';
import { ownerView } from '../support/owner-view';
import { assertPgliteCanLoadInJest, servingTestPglite } from '../support/pglite';
import { createFreshDatabase, type FreshDatabase } from '../support/fresh-postgres-database';
import { describeIfPostgres } from '../support/postgres';
import { serviceKeyManager } from '../support/verifier-fixtures';
import { aTenant, aUser, anApiKey } from './storage-fixtures';

/** The key the test databases' walls were set up with (openServing* without a key of their own). */
const DEVELOPMENT_WALLS = new TenantWalls(DEVELOPMENT_TENANT_WALL_KEY);

interface Backend {
  readonly storage: Storage;
  /** What an operator revokes service keys with (the schema's owner on SQL). */
  readonly serviceKeys: ServiceKeyRepository;
  /** SQL storage: the schema's owner, outside the walls. */
  readonly owner?: Kysely<DB>;
  /** SQL storage: the serving database, as the app role. */
  readonly serving?: Kysely<DB>;
  /** SQL storage: the proofs the serving database's walls and definer functions want. */
  readonly walls?: TenantWalls;
  /** Calls `onPayload` with each notification's payload on the change channel, as anyone who can connect could. */
  readonly listen?: (onPayload: (payload: string) => void) => Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Everything logged after `after`, read as the service reads it. */
async function since(log: CredentialChangeLog, after: number): Promise<LoggedChange[]> {
  return [...(await log.read(after, 1_000)).changes];
}

async function headOf(log: CredentialChangeLog): Promise<number> {
  return (await log.read(Number.MAX_SAFE_INTEGER, 0)).head;
}

async function seeded(storage: Storage) {
  const tenant = aTenant();
  await storage.repos.tenants.create(tenant);
  const user = aUser(tenant.id);
  await storage.repos.users.create(user);
  const key = anApiKey(tenant.id, user.id);
  await storage.repos.apiKeys.create(key);
  return { tenant, user, key };
}

/** Polls a condition every few milliseconds (a notification crosses a socket on Postgres); fails after a while. */
async function eventually(check: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 3_000) throw new Error(`not within 3 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function describeChangeLog(name: string, open: () => Promise<Backend>): void {
  describe(`the credential change log on ${name}`, () => {
    let backend: Backend;
    let log: CredentialChangeLog;
    beforeAll(async () => {
      backend = await open();
      log = backend.storage.changeLog;
    }, 60_000);
    afterAll(async () => {
      await backend?.close();
    });

    it('gives every committed change the next position, with its kind, id and tenant; creating a member or key is no change', async () => {
      const before = await headOf(log);
      const { tenant, user, key } = await seeded(backend.storage);
      expect(await headOf(log)).toBe(before);

      await backend.storage.repos.users.changeRole(tenant.id, user.id, 'viewer');
      await backend.storage.repos.apiKeys.revoke(tenant.id, key.id);
      const logged = (await since(log, before)).filter((change) => 'tenantId' in change && change.tenantId === tenant.id);
      expect(logged).toEqual([
        { position: expect.any(Number), kind: 'user', userId: user.id, tenantId: tenant.id },
        { position: expect.any(Number), kind: 'api-key', keyId: key.id, tenantId: tenant.id },
      ]);
      expect(logged[1]!.position).toBeGreaterThan(logged[0]!.position);
    });

    it('answers the head alone as a read does, before and after a change', async () => {
      const { tenant, user } = await seeded(backend.storage);
      expect(await log.head()).toBe(await headOf(log));
      await backend.storage.repos.users.changeRole(tenant.id, user.id, 'viewer');
      const after = await log.head();
      expect(after).toBe(await headOf(log));
      expect(await since(log, after - 1)).toEqual([expect.objectContaining({ position: after, kind: 'user', userId: user.id })]);
    });

    it('takes no position for a change rolled back: the next one follows without a hole', async () => {
      const { tenant, user } = await seeded(backend.storage);
      const before = await headOf(log);
      await expect(backend.storage.unitOfWork.run(async (repos) => {
        await repos.users.changeRole(tenant.id, user.id, 'admin');
        throw new Error('changed my mind');
      })).rejects.toThrow('changed my mind');
      expect(await headOf(log)).toBe(before);

      await backend.storage.repos.users.changeRole(tenant.id, user.id, 'viewer');
      const after = await since(log, before);
      expect(after[0]).toMatchObject({ position: before + 1 });
    });

    it('logs a service key revoked, under its id and no tenant', async () => {
      const manage = serviceKeyManager(backend.serviceKeys);
      const { key } = await manage.create(`logged-${randomUUID()}`, ALL_TENANTS);
      const before = await headOf(log);
      await manage.revoke(key.id);
      expect(await since(log, before)).toContainEqual({ position: expect.any(Number), kind: 'service-key', serviceKeyId: key.id });
    });

    if (isSql(name)) {
      it('notifies the channel with an empty payload: LISTEN learns that something changed, never what or in which tenant', async () => {
        const payloads: string[] = [];
        const stop = await backend.listen!((payload) => payloads.push(payload));
        try {
          const { tenant, user, key } = await seeded(backend.storage);
          await backend.storage.repos.users.changeRole(tenant.id, user.id, 'viewer');
          await backend.storage.repos.apiKeys.revoke(tenant.id, key.id);
          await eventually(() => payloads.length >= 2, 'two notifications');
          expect(new Set(payloads)).toEqual(new Set(['']));
        } finally {
          await stop();
        }
      });

      it('is written and read only through the owner\'s functions: the app role may read a page, prune and read the head row, nothing more', async () => {
        const serving = backend.serving!;
        for (const statement of [
          sql`select * from ${sql.id(CHANGE_LOG_TABLE)}`,
          sql`insert into ${sql.id(CHANGE_LOG_TABLE)} (position, kind, logged_at) values (999999999, 'everything', now())`,
          sql`update credential_change_head set position = 0`,
          sql`select ${sql.id(FORGET_EVERY_CREDENTIAL)}()`,
        ]) {
          await expect(statement.execute(serving)).rejects.toThrow(/permission denied/);
        }
        const walls = backend.walls!;
        await sql`select * from ${sql.id(READ_CREDENTIAL_CHANGES)}(0, 1, ${walls.proof(READ_CHANGES_SUBJECT)})`.execute(serving);
        await sql`select ${sql.id(PRUNE_CREDENTIAL_CHANGES)}(${walls.proof(PRUNE_CHANGES_SUBJECT)})`.execute(serving);
        // The head is a count that names nobody (migration 0017): readable, never writable.
        const before = await headOf(log);
        const { rows: [readHead] } = await sql<{ position: string | number }>`select position from credential_change_head`.execute(serving);
        expect(Number(readHead!.position)).toBeGreaterThanOrEqual(before);
        expect(Number(readHead!.position)).toBeLessThanOrEqual(await headOf(log));
        // The log names every tenant's members and keys: without the service's proof, nothing.
        const { tenant, user } = await seeded(backend.storage);
        await backend.storage.repos.users.changeRole(tenant.id, user.id, 'viewer');
        for (const proof of ['', 'f'.repeat(64), walls.proof(PRUNE_CHANGES_SUBJECT), walls.tenantProof(tenant.id)]) {
          const { rows: forged } = await sql`select * from ${sql.id(READ_CREDENTIAL_CHANGES)}(0, 1000, ${proof})`.execute(serving);
          expect(forged).toEqual([]);
        }
        const { rows: proven } = await sql<{ log_subject: string | null }>`
          select * from ${sql.id(READ_CREDENTIAL_CHANGES)}(0, 100000, ${walls.proof(READ_CHANGES_SUBJECT)})`.execute(serving);
        expect(proven.map((row) => row.log_subject)).toContain(user.id);

        const { rows } = await sql<{ name: string; definer: boolean; public_can: boolean; app_can: boolean }>`
          select p.proname as name, p.prosecdef as definer,
                 exists (select from aclexplode(p.proacl) acl where acl.grantee = 0) as public_can,
                 has_function_privilege(${APP_ROLE}, p.oid, 'execute') as app_can
          from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public' and p.proname in (${sql.join([READ_CREDENTIAL_CHANGES, PRUNE_CREDENTIAL_CHANGES, FORGET_EVERY_CREDENTIAL, READ_CHANGE_HEAD])})
          order by p.proname`.execute(backend.owner!);
        expect(rows).toEqual([
          { name: READ_CREDENTIAL_CHANGES, definer: true, public_can: false, app_can: true },
          { name: READ_CHANGE_HEAD, definer: true, public_can: false, app_can: true },
          { name: FORGET_EVERY_CREDENTIAL, definer: true, public_can: false, app_can: false },
          { name: PRUNE_CREDENTIAL_CHANGES, definer: true, public_can: false, app_can: true },
        ].sort((a, b) => (a.name < b.name ? -1 : 1)));
      });

      it('prunes what is older than the log keeps, and a reader then finds a hole before the head', async () => {
        const { tenant, user } = await seeded(backend.storage);
        const before = await headOf(log);
        await backend.storage.repos.users.changeRole(tenant.id, user.id, 'viewer');
        await backend.storage.repos.users.changeRole(tenant.id, user.id, 'admin');
        await sql`update ${sql.id(CHANGE_LOG_TABLE)} set logged_at = now() - interval '2 hours' where position = ${before + 1}`.execute(backend.owner!);
        expect(await log.prune()).toBeGreaterThanOrEqual(1);
        const page = await log.read(before, 10);
        expect(page.changes[0]!.position).toBe(before + 2);
        expect(page.head).toBeGreaterThanOrEqual(before + 2);
      });

      /** `count` more keys of the member, inserted as an operator would (no change: a new key is none). */
      async function insertKeys(tenantId: string, userId: string, count: number): Promise<void> {
        await sql`
          insert into api_keys (id, tenant_id, user_id, key_prefix, key_hash, revoked, created_at)
          select gen_random_uuid(), ${tenantId}::uuid, ${userId}::uuid, 'pcls_' || substr(md5(n::text), 1, 8), md5(${tenantId}::text || n::text), false, now()
          from generate_series(1, ${count}::int) as n`.execute(backend.owner!);
      }

      it('one statement that changes many credentials logs each at the next position, and the head moves to the last', async () => {
        const { tenant, user } = await seeded(backend.storage);
        await insertKeys(tenant.id, user.id, 1_199);
        const before = await headOf(log);
        await sql`update api_keys set revoked = true where tenant_id = ${tenant.id}::uuid`.execute(backend.owner!);
        expect(await headOf(log)).toBe(before + 1_200);
        const { changes } = await log.read(before, 5_000);
        expect(changes.map((change) => change.position)).toEqual(Array.from({ length: 1_200 }, (_, i) => before + 1 + i));
        expect(new Set(changes.map((change) => (change.kind === 'api-key' ? change.keyId : change.kind))).size).toBe(1_200);

        // The next transaction goes on from there.
        await backend.storage.repos.users.changeRole(tenant.id, user.id, 'viewer');
        expect(await since(log, before + 1_200)).toEqual([{ position: before + 1_201, kind: 'user', userId: user.id, tenantId: tenant.id }]);
      });

      it('a savepoint rolled back gives back the position it took: the transaction goes on without a hole', async () => {
        const { tenant, user, key } = await seeded(backend.storage);
        const before = await headOf(log);
        await backend.owner!.transaction().execute(async (trx) => {
          await sql`update users set role = 'viewer' where id = ${user.id}::uuid`.execute(trx);
          await sql`savepoint undone`.execute(trx);
          await sql`select ${sql.id(FORGET_EVERY_CREDENTIAL)}()`.execute(trx); // logged at once, not at commit
          await sql`rollback to savepoint undone`.execute(trx);
          await sql`update api_keys set revoked = true where id = ${key.id}::uuid`.execute(trx);
        });
        expect(await since(log, before)).toEqual([
          { position: before + 1, kind: 'user', userId: user.id, tenantId: tenant.id },
          { position: before + 2, kind: 'api-key', keyId: key.id, tenantId: tenant.id },
        ]);
        expect(await headOf(log)).toBe(before + 2);
      });

      it('a unit of work that changes more credentials than it lists one by one reports everything; fewer, each one', async () => {
        const { tenant, user } = await seeded(backend.storage);
        const few = await seeded(backend.storage);
        await insertKeys(tenant.id, user.id, 1_100);
        await insertKeys(few.tenant.id, few.user.id, 2);
        const reports: CredentialChange[][] = [];
        const stop = backend.storage.afterCommit((changes) => reports.push([...changes]));
        try {
          expect(await backend.storage.unitOfWork.run((tx) => tx.apiKeys.revokeAllOf(tenant.id, user.id))).toBe(1_101);
          expect(reports).toEqual([[{ kind: 'everything' }]]);
          reports.length = 0;
          expect(await backend.storage.unitOfWork.run((tx) => tx.apiKeys.revokeAllOf(few.tenant.id, few.user.id))).toBe(3);
          expect(reports).toHaveLength(1);
          expect(reports[0]!.map((change) => change.kind)).toEqual(['api-key', 'api-key', 'api-key']);
        } finally {
          stop();
        }
      });

      it('an operator\'s forget_every_credential() logs "everything"', async () => {
        const before = await headOf(log);
        await sql`select ${sql.id(FORGET_EVERY_CREDENTIAL)}()`.execute(backend.owner!);
        expect(await since(log, before)).toContainEqual({ position: expect.any(Number), kind: 'everything' });
      });
    }
  });
}

function isSql(name: string): boolean {
  return name !== 'memory';
}

describeChangeLog('memory', async () => {
  const storage = createMemoryStorage();
  return { storage, serviceKeys: new MemoryServiceKeys(storage.changeLog), close: async () => undefined };
});

describeChangeLog('PGlite', async () => {
  assertPgliteCanLoadInJest();
  const opened = await servingTestPglite();
  const owner = ownerView(opened.db);
  return {
    storage: createKyselyStorage(opened, opened.close),
    serviceKeys: new KyselyServiceKeyRepository(owner),
    owner,
    serving: opened.db,
    walls: opened.walls,
    listen: (onPayload) => opened.listen!(CREDENTIAL_CHANGES_CHANNEL, onPayload),
    close: opened.close,
  };
});

describe('the credential change log on PGlite: TRUNCATE', () => {
  it('logs "everything": a table emptied names no row', async () => {
    assertPgliteCanLoadInJest();
    const opened = await servingTestPglite();
    try {
      const storage = createKyselyStorage(opened, opened.close);
      const before = await headOf(storage.changeLog);
      await sql`truncate api_keys`.execute(ownerView(opened.db));
      expect(await since(storage.changeLog, before)).toEqual([{ position: before + 1, kind: 'everything' }]);
    } finally {
      await opened.close();
    }
  });
});

describeIfPostgres('the credential change log, Postgres', (serverUrl) => {
  // A database of its own, migrated here: the head and the channel are per database, and other
  // suites commit credential changes on the shared one, which would move the head between two reads.
  let fresh: FreshDatabase;
  let url: string;
  beforeAll(async () => {
    fresh = await createFreshDatabase(serverUrl);
    url = fresh.url;
    const migrator = openPostgres(url, { max: 1 });
    try {
      await migrateAll(migrator.db);
    } finally {
      await migrator.close();
    }
  });
  afterAll(async () => {
    await fresh?.drop();
  });

  describeChangeLog('Postgres', async () => {
    const opened = await openServingPostgres(url, { max: 4 });
    const owner = openPostgres(url, { max: 2 });
    return {
      storage: createKyselyStorage(opened, opened.close),
      serviceKeys: new KyselyServiceKeyRepository(owner.db),
      owner: owner.db,
      serving: opened.db,
      walls: opened.walls,
      listen: async (onPayload) => {
        const client = new Client({ connectionString: url });
        await client.connect();
        client.on('notification', (message) => {
          if (message.channel === CREDENTIAL_CHANGES_CHANNEL) onPayload(message.payload ?? '');
        });
        await client.query(`listen ${CREDENTIAL_CHANGES_CHANNEL}`);
        return () => client.end();
      },
      close: async () => {
        await owner.close();
        await opened.close();
      },
    };
  });

  describe('positions in commit order', () => {
    let owner: ReturnType<typeof openPostgres>;
    beforeAll(() => {
      owner = openPostgres(url, { max: 2 });
    });
    afterAll(async () => {
      await owner?.close();
    });

    it('a transaction that changed first but commits last takes the later position, and waits for no one until it commits', async () => {
      const storage = createKyselyStorage({ db: owner.db, walls: DEVELOPMENT_WALLS }, async () => undefined);
      const first = await seeded(storage);
      const second = await seeded(storage);
      const before = await headOf(storage.changeLog);
      const slow = new Client({ connectionString: url });
      await slow.connect();
      try {
        await slow.query('begin');
        await slow.query(`update users set role = 'viewer' where id = $1`, [first.user.id]);
        // The slow writer holds its transaction open; another one changes a credential and commits
        // without waiting: the position is taken at commit, not at the change.
        await storage.repos.apiKeys.revoke(second.tenant.id, second.key.id);
        await slow.query('commit');
      } finally {
        await slow.end();
      }
      const logged = await since(storage.changeLog, before);
      const ofSecond = logged.find((change) => change.kind === 'api-key' && change.keyId === second.key.id)!;
      const ofFirst = logged.find((change) => change.kind === 'user' && change.userId === first.user.id)!;
      expect(ofSecond.position).toBeLessThan(ofFirst.position);
    });

    it('a role that can connect but was granted nothing can LISTEN, hears an empty payload, and cannot read the log', async () => {
      const name = `pc_test_listener_${randomBytes(6).toString('hex')}`;
      await sql`create role ${sql.id(name)} login`.execute(owner.db);
      // CONNECT by name: an earlier start with a serving login of its own took it from PUBLIC.
      const { rows: [here] } = await sql<{ name: string }>`select current_database() as name`.execute(owner.db);
      await sql`grant connect on database ${sql.id(here!.name)} to ${sql.id(name)}`.execute(owner.db);
      const stranger = new URL(url);
      stranger.username = name;
      stranger.password = '';
      const client = new Client({ connectionString: stranger.toString() });
      try {
        await client.connect();
        const payloads: string[] = [];
        client.on('notification', (message) => payloads.push(message.payload ?? ''));
        await client.query(`listen ${CREDENTIAL_CHANGES_CHANNEL}`);
        const storage = createKyselyStorage({ db: owner.db, walls: DEVELOPMENT_WALLS }, async () => undefined);
        const { tenant, user } = await seeded(storage);
        await storage.repos.users.changeRole(tenant.id, user.id, 'viewer');
        await eventually(() => payloads.length >= 1, 'a notification');
        expect(payloads.every((payload) => payload === '')).toBe(true);
        await expect(client.query(`select * from ${READ_CREDENTIAL_CHANGES}(0, 10, '')`)).rejects.toThrow(/permission denied/);
        await expect(client.query(`select * from ${CHANGE_LOG_TABLE}`)).rejects.toThrow(/permission denied/);
        await expect(client.query(`select ${READ_CHANGE_HEAD}()`)).rejects.toThrow(/permission denied/);
      } finally {
        await client.end().catch(() => undefined);
        await sql`revoke connect on database ${sql.id(here!.name)} from ${sql.id(name)}`.execute(owner.db);
        await sql`drop role if exists ${sql.id(name)}`.execute(owner.db);
      }
    });
  });
});
