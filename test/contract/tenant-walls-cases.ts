import { LIST_API_KEYS, LIST_MEMBERS } from '../../src/adapters/persistence/kysely/migrations/0012-tenant-list-reads';
import { CLAIM_MAIL, FINISH_MAIL, LOOKUP_EMAIL_TOKEN, PRUNE_MAIL } from '../../src/adapters/persistence/kysely/migrations/0013-email-tokens-and-outbox';
import { aSession } from './cases/session-cases';
import { LOOKUP_SESSION, RECORD_SESSION_USES } from '../../src/adapters/persistence/kysely/migrations/0014-sessions';
import { LOOKUP_PASSKEY } from '../../src/adapters/persistence/kysely/migrations/0019-passkeys';
import { TOTP_FACTORS_EXIST } from '../../src/adapters/persistence/kysely/migrations/0021-sealed-secrets-exist';
import { LOOKUP_SSO_DOMAIN_OWNER } from '../../src/adapters/persistence/kysely/migrations/0022-single-sign-on';
import { LOOKUP_TENANT_BY_SLUG } from '../../src/adapters/persistence/kysely/migrations/0024-tenant-by-slug';
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { auditRow } from '../../src/adapters/persistence/kysely/repositories/audit-event-repository';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/repositories/kysely-storage';
import {
  APP_ROLE,
  LOOKUP_ACTIVE_API_KEY,
  LOOKUP_INVITE_BY_TOKEN,
  LOOKUP_USER_BY_EMAIL,
} from '../../src/adapters/persistence/kysely/migrations/0002-tenant-walls';
import { LOOKUP_MEMBER_AUTH_STATE, RECORD_API_KEY_USES } from '../../src/adapters/persistence/kysely/migrations/0008-credential-check-statements';
import { PRUNE_CREDENTIAL_CHANGES, READ_CREDENTIAL_CHANGES } from '../../src/adapters/persistence/kysely/migrations/0010-credential-change-log';
import { READ_CHANGE_HEAD } from '../../src/adapters/persistence/kysely/migrations/0015-credential-change-head';
import { APPLIED_MODULE_MIGRATIONS } from '../../src/adapters/persistence/kysely/migrations/0011-module-readiness-and-audit-action-index';
import {
  LIST_PENDING_INVITES, PROOF_OK, WALL_KEY_STATE, WALL_SETTING, WALL_TENANT,
} from '../../src/adapters/persistence/kysely/migrations/0009-tenant-wall-proofs';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import type { ServingDatabase } from '../../src/adapters/persistence/kysely/driver/serving-database';
import type { TenantWalls } from '../../src/adapters/persistence/kysely/driver/tenant-walls';
import type { Storage } from '../../src/adapters/persistence/storage';
import { ownerView } from '../support/owner-view';
import { anAuditEvent } from './cases/audit-event-cases';
import { aConnection, aDomainClaim } from './cases/sso-cases';
import { describeForgedTenantCases } from './forged-tenant-cases';
import { aUser, anApiKey, anInvite, seedTenant, summaryOf } from './storage-fixtures';

const WALLED_BY_TENANT_ID = ['users', 'api_keys', 'tenant_invites'] as const;
const INSUFFICIENT_PRIVILEGE = '42501';

/** A tenant with one row in every walled table. */
async function seedWalledTenant(storage: Storage) {
  const { repos } = storage;
  const { tenant, user } = await seedTenant(repos, 'admin');
  const key = anApiKey(tenant.id, user.id);
  const invite = anInvite(tenant.id, user.id);
  await repos.apiKeys.create(key);
  await repos.invites.create(invite);
  return { tenant, user, key, invite, ids: { users: user.id, api_keys: key.id, tenant_invites: invite.id } };
}

/**
 * Raw SQL with the tenant setting as the repositories set it (the tenant and its proof), and
 * nothing else: no WHERE on the tenant, so only the database's policies stand between the
 * statement and other tenants' rows.
 */
function inTenant<T>(database: { db: Kysely<DB>; walls: TenantWalls }, tenantId: string, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return database.db.transaction().execute(async (trx) => {
    await sql`select set_config(${WALL_SETTING}, ${database.walls.setting(tenantId)}, true)`.execute(trx);
    return work(trx);
  });
}

async function idsIn(db: Kysely<DB>, table: (typeof WALLED_BY_TENANT_ID)[number]): Promise<{ id: string; tenant_id: string }[]> {
  return db.selectFrom(table).select(['id', 'tenant_id']).execute();
}

/**
 * Proof that Postgres itself keeps tenants apart, on a database opened as the service opens it:
 * a connection working as the app role, with the policies as the only filter.
 */
export function describeTenantWallCases(
  name: string,
  open: () => Promise<ServingDatabase>,
  /** The owner's view, outside the walls; by default the serving session switched back to its login (the owner). */
  ownerOf: (serving: Kysely<DB>) => Kysely<DB> = ownerView,
  /** Who runs forged SQL as the service's login; by default the serving connection itself (the app role). */
  attackerOf: (serving: Kysely<DB>) => Kysely<DB> = (serving) => serving,
): void {
  describe(`tenant walls: ${name}`, () => {
    let opened: ServingDatabase | undefined;
    beforeAll(async () => {
      opened = await open();
    });
    afterAll(async () => {
      await opened?.close();
    });
    const serving = () => opened!.db;
    const walled = () => opened!;
    const storage = () => createKyselyStorage(opened!, async () => undefined);
    const emailProof = (email: string) => opened!.walls.emailProof(email);

    describeForgedTenantCases(name, { serving: walled, attacker: () => attackerOf(serving()), owner: () => ownerOf(serving()) });

    test('the service works as a role that is neither superuser nor owner, nor bypasses row security', async () => {
      const { rows: [me] } = await sql<{ user: string; rolsuper: boolean; rolbypassrls: boolean }>`
        select current_user as user, rolsuper, rolbypassrls from pg_roles where rolname = current_user`.execute(serving());
      expect(me).toEqual({ user: APP_ROLE, rolsuper: false, rolbypassrls: false });

      const { rows: tables } = await sql<{ relname: string; owner: string; relrowsecurity: boolean }>`
        select c.relname, pg_get_userbyid(c.relowner) as owner, c.relrowsecurity
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relname in ('tenants', 'users', 'api_keys', 'tenant_invites')`.execute(serving());
      expect(tables).toHaveLength(4);
      for (const table of tables) {
        expect(table.owner).not.toBe(APP_ROLE);
        expect(table.relrowsecurity).toBe(true);
      }
    });

    test('the app role holds exactly the grants the repositories use, owns nothing and may create nothing', async () => {
      const { rows } = await sql<{ table: string; privilege: string }>`
        select t.table_name as table, p.privilege
        from (values ('tenants'), ('users'), ('api_keys'), ('tenant_invites'), ('audit_events'), ('sessions'), ('totp_factors'), ('recovery_codes'),
                     ('passkeys'), ('passkey_challenges'), ('passkey_sign_ins'),
                     ('sso_connections'), ('sso_domains'), ('sso_identities'), ('sso_sign_ins'),
                     ('kysely_migration'), ('kysely_migration_lock')) as t(table_name)
        cross join (values ('SELECT'), ('INSERT'), ('UPDATE'), ('DELETE'), ('TRUNCATE'), ('REFERENCES'), ('TRIGGER')) as p(privilege)
        where has_table_privilege(${APP_ROLE}, 'public.' || t.table_name, p.privilege)
        order by 1, 2`.execute(serving());
      const grants: Record<string, string[]> = {};
      for (const row of rows) (grants[row.table] ??= []).push(row.privilege);
      expect(grants).toEqual({
        api_keys: ['INSERT', 'SELECT', 'UPDATE'],
        audit_events: ['INSERT', 'SELECT'],
        passkey_challenges: ['INSERT', 'SELECT', 'UPDATE'],
        passkey_sign_ins: ['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
        passkeys: ['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
        recovery_codes: ['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
        sessions: ['INSERT', 'SELECT', 'UPDATE'],
        sso_connections: ['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
        sso_domains: ['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
        sso_identities: ['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
        sso_sign_ins: ['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
        tenant_invites: ['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
        tenants: ['INSERT', 'SELECT', 'UPDATE'],
        totp_factors: ['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
        users: ['INSERT', 'SELECT', 'UPDATE'],
      });
      const { rows: [power] } = await sql<{ owned: number; create_in_schema: boolean }>`
        select (select count(*)::int from pg_class where relowner = (select oid from pg_roles where rolname = ${APP_ROLE})) as owned,
               has_schema_privilege(${APP_ROLE}, 'public', 'CREATE') as create_in_schema`.execute(serving());
      expect(power).toEqual({ owned: 0, create_in_schema: false });
    });

    test('the app role cannot touch the migration bookkeeping', async () => {
      await expect(sql`select * from kysely_migration`.execute(serving())).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
    });

    test("with tenant A's context an unfiltered SELECT returns exactly A's rows", async () => {
      const a = await seedWalledTenant(storage());
      await seedWalledTenant(storage());

      for (const table of WALLED_BY_TENANT_ID) {
        const rows = await inTenant(walled(), a.tenant.id, (trx) => idsIn(trx, table));
        expect(rows).toEqual([{ id: a.ids[table], tenant_id: a.tenant.id }]);
      }
      const tenants = await inTenant(walled(), a.tenant.id, (trx) => trx.selectFrom('tenants').select('id').execute());
      expect(tenants).toEqual([{ id: a.tenant.id }]);
    });

    test('without a tenant context an unfiltered SELECT returns no rows at all', async () => {
      await seedWalledTenant(storage());
      const owner = ownerOf(serving());

      for (const table of [...WALLED_BY_TENANT_ID, 'tenants'] as const) {
        const seen = await serving().selectFrom(table).select('id').execute();
        expect(seen).toEqual([]);
        const all = await owner.selectFrom(table).select('id').execute();
        expect(all.length).toBeGreaterThan(0);
      }
    });

    test('a tenant context ends with the transaction that set it', async () => {
      const a = await seedWalledTenant(storage());
      expect(await storage().repos.invites.listPending(a.tenant.id, new Date())).toEqual([summaryOf(a.invite)]);

      // The repositories set it transaction-locally: nothing is left on the connection afterwards.
      expect(await serving().selectFrom('tenant_invites').select('id').execute()).toEqual([]);
      const { rows: [setting] } = await sql<{ value: string | null }>`
        select current_setting(${WALL_SETTING}, true) as value`.execute(serving());
      expect(setting?.value ?? '').toBe('');
    });

    test("with tenant A's context an INSERT of a row for tenant B is refused", async () => {
      const a = await seedWalledTenant(storage());
      const b = await seedWalledTenant(storage());
      const refused = { code: INSUFFICIENT_PRIVILEGE, message: expect.stringMatching(/row-level security/) };

      const user = aUser(b.tenant.id);
      await expect(inTenant(walled(), a.tenant.id, (trx) => trx.insertInto('users').values({
        id: user.id, tenant_id: b.tenant.id, email: user.email, password_hash: user.passwordHash, role: 'owner', created_at: new Date(),
      }).execute())).rejects.toMatchObject(refused);

      const key = anApiKey(b.tenant.id, b.user.id);
      await expect(inTenant(walled(), a.tenant.id, (trx) => trx.insertInto('api_keys').values({
        id: key.id, tenant_id: b.tenant.id, user_id: b.user.id, key_prefix: key.keyPrefix, key_hash: key.keyHash, revoked: false, created_at: new Date(),
      }).execute())).rejects.toMatchObject(refused);

      const invite = anInvite(b.tenant.id, b.user.id);
      await expect(inTenant(walled(), a.tenant.id, (trx) => trx.insertInto('tenant_invites').values({
        id: invite.id, tenant_id: b.tenant.id, email: invite.email, role: 'admin', token: invite.token,
        invited_by: b.user.id, expires_at: invite.expiresAt, accepted_at: null, created_at: new Date(),
      }).execute())).rejects.toMatchObject(refused);

      const otherTenant = randomUUID();
      await expect(inTenant(walled(), a.tenant.id, (trx) => trx.insertInto('tenants').values({
        id: otherTenant, name: 'Other', slug: `other-${otherTenant}`, created_at: new Date(),
      }).execute())).rejects.toMatchObject(refused);

      // No context at all: no tenant's row can be written.
      await expect(serving().insertInto('tenants').values({
        id: otherTenant, name: 'Other', slug: `other-${otherTenant}`, created_at: new Date(),
      }).execute()).rejects.toMatchObject(refused);
    });

    test("with tenant A's context an UPDATE or DELETE of B's rows changes nothing", async () => {
      const a = await seedWalledTenant(storage());
      const b = await seedWalledTenant(storage());

      const changed = await inTenant(walled(), a.tenant.id, async (trx) => [
        ...(await trx.updateTable('users').set({ role: 'viewer' }).where('id', '=', b.user.id).returning('id').execute()),
        ...(await trx.updateTable('api_keys').set({ revoked: true }).where('id', '=', b.key.id).returning('id').execute()),
        ...(await trx.updateTable('tenant_invites').set({ accepted_at: new Date() }).returning('id').execute()),
        ...(await trx.updateTable('tenants').set({ name: 'Taken over' }).where('id', '=', b.tenant.id).returning('id').execute()),
        ...(await trx.deleteFrom('tenant_invites').where('id', '=', b.invite.id).returning('id').execute()),
      ]);
      // The unfiltered invite UPDATE reached A's own invite only.
      expect(changed).toEqual([{ id: a.invite.id }]);
      // Tenants are never deleted by the service, so the app role may not even try.
      await expect(inTenant(walled(), a.tenant.id, (trx) =>
        trx.deleteFrom('tenants').where('id', '=', b.tenant.id).execute(),
      )).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });

      const { repos } = storage();
      expect(await repos.users.findById(b.tenant.id, b.user.id)).toEqual(b.user);
      expect(await repos.apiKeys.findActiveByHash(b.key.keyPrefix, b.key.keyHash)).not.toBeNull();
      expect(await repos.invites.findByToken(b.invite.token)).toEqual(b.invite);
      expect(await repos.tenants.findById(b.tenant.id)).toEqual(b.tenant);
    });

    test("with tenant A's context an UPDATE moving A's row to tenant B is refused", async () => {
      const a = await seedWalledTenant(storage());
      const b = await seedWalledTenant(storage());

      for (const table of WALLED_BY_TENANT_ID) {
        await expect(inTenant(walled(), a.tenant.id, (trx) =>
          trx.updateTable(table).set({ tenant_id: b.tenant.id }).where('id', '=', a.ids[table]).execute(),
        )).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
      }
      expect(await storage().repos.users.findById(a.tenant.id, a.user.id)).toEqual(a.user);
    });

    test('the security-definer lookups cross tenants only by their exact key', async () => {
      const a = await seedWalledTenant(storage());
      const b = await seedWalledTenant(storage());

      const found = await inTenant(walled(), a.tenant.id, async (trx) => ({
        user: (await sql<{ id: string }>`select id from ${sql.id(LOOKUP_USER_BY_EMAIL)}(${b.user.email}, ${emailProof(b.user.email)})`.execute(trx)).rows,
        key: (await sql<{ key_id: string }>`
          select key_id from ${sql.id(LOOKUP_ACTIVE_API_KEY)}(${b.key.keyPrefix}, ${b.key.keyHash})`.execute(trx)).rows,
        invite: (await sql<{ id: string }>`select id from ${sql.id(LOOKUP_INVITE_BY_TOKEN)}(${b.invite.token})`.execute(trx)).rows,
      }));
      expect(found).toEqual({ user: [{ id: b.user.id }], key: [{ key_id: b.key.id }], invite: [{ id: b.invite.id }] });

      // Patterns, fragments and half a key match nothing: there is no way to enumerate.
      const misses = await Promise.all([
        sql`select * from ${sql.id(LOOKUP_USER_BY_EMAIL)}(${'%'}, ${emailProof('%')})`.execute(serving()),
        sql`select * from ${sql.id(LOOKUP_USER_BY_EMAIL)}(${b.user.email.toUpperCase()}, ${emailProof(b.user.email.toUpperCase())})`.execute(serving()),
        sql`select * from ${sql.id(LOOKUP_ACTIVE_API_KEY)}(${b.key.keyPrefix}, ${a.key.keyHash})`.execute(serving()),
        sql`select * from ${sql.id(LOOKUP_ACTIVE_API_KEY)}(${a.key.keyPrefix}, ${b.key.keyHash})`.execute(serving()),
        sql`select * from ${sql.id(LOOKUP_INVITE_BY_TOKEN)}(${b.invite.token.slice(0, 32)})`.execute(serving()),
        sql`select * from ${sql.id(LOOKUP_INVITE_BY_TOKEN)}(${'%'})`.execute(serving()),
      ]);
      for (const miss of misses) expect(miss.rows).toEqual([]);
    });

    test("the member-state lookup answers a member only with the member's own tenant", async () => {
      const a = await seedWalledTenant(storage());
      const b = await seedWalledTenant(storage());
      const state = (tenantId: string, userId: string) =>
        sql`select * from ${sql.id(LOOKUP_MEMBER_AUTH_STATE)}(${tenantId}::uuid, ${userId}::uuid, ${walled().walls.tenantProof(tenantId)})`.execute(serving());

      expect((await state(b.tenant.id, b.user.id)).rows).toEqual([{ role: b.user.role, auth_version: 0 }]);
      expect((await state(a.tenant.id, b.user.id)).rows).toEqual([]);
      await storage().repos.users.markRemoved(b.tenant.id, b.user.id, new Date());
      expect((await state(b.tenant.id, b.user.id)).rows).toEqual([]);
    });

    test('the lookups never answer for a removed member, nor for their keys', async () => {
      const a = await seedWalledTenant(storage());
      await storage().repos.users.markRemoved(a.tenant.id, a.user.id, new Date());

      const found = await Promise.all([
        sql`select * from ${sql.id(LOOKUP_USER_BY_EMAIL)}(${a.user.email}, ${emailProof(a.user.email)})`.execute(serving()),
        sql`select * from ${sql.id(LOOKUP_ACTIVE_API_KEY)}(${a.key.keyPrefix}, ${a.key.keyHash})`.execute(serving()),
      ]);
      for (const result of found) expect(result.rows).toEqual([]);
    });

    test("a key row naming another tenant's user is not answered by the key lookup", async () => {
      const a = await seedWalledTenant(storage());
      const b = await seedWalledTenant(storage());
      // Only the owner can write such a row (the walls refuse it to the app role): a hand-edited database.
      const key = anApiKey(a.tenant.id, b.user.id);
      await ownerOf(serving()).insertInto('api_keys').values({
        id: key.id, tenant_id: a.tenant.id, user_id: b.user.id, key_prefix: key.keyPrefix, key_hash: key.keyHash, revoked: false, created_at: new Date(),
      }).execute();

      const { rows } = await sql`select * from ${sql.id(LOOKUP_ACTIVE_API_KEY)}(${key.keyPrefix}, ${key.keyHash})`.execute(serving());
      expect(rows).toEqual([]);
    });

    test('the lookups run as the owner with a pinned search_path, and only the app role may call them', async () => {
      const crossings = [
        LOOKUP_USER_BY_EMAIL, LOOKUP_ACTIVE_API_KEY, LOOKUP_INVITE_BY_TOKEN, LOOKUP_MEMBER_AUTH_STATE, RECORD_API_KEY_USES,
        LIST_PENDING_INVITES, LIST_MEMBERS, LIST_API_KEYS, WALL_TENANT, WALL_KEY_STATE, LOOKUP_EMAIL_TOKEN, CLAIM_MAIL, FINISH_MAIL, PRUNE_MAIL,
        LOOKUP_PASSKEY, TOTP_FACTORS_EXIST, LOOKUP_SSO_DOMAIN_OWNER, LOOKUP_TENANT_BY_SLUG,
      ];
      const { rows } = await sql<{ name: string; definer: boolean; config: string[] | null; public_can: boolean; app_can: boolean }>`
        select p.proname as name, p.prosecdef as definer, p.proconfig as config,
               exists (select from aclexplode(p.proacl) acl where acl.grantee = 0) as public_can,
               has_function_privilege(${APP_ROLE}, p.oid, 'execute') as app_can
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.proname in (${sql.join(crossings)})
        order by p.proname`.execute(serving());
      expect(rows.map((fn) => fn.name).sort()).toEqual([...crossings].sort());
      for (const fn of rows) {
        expect(fn).toMatchObject({ definer: true, config: ['search_path=public, pg_temp'], public_can: false, app_can: true });
      }
      // The proof check reads the key: the definer functions call it as the owner, nobody else may.
      const { rows: [check] } = await sql<{ definer: boolean; public_can: boolean; app_can: boolean }>`
        select p.prosecdef as definer, exists (select from aclexplode(p.proacl) acl where acl.grantee = 0) as public_can,
               has_function_privilege(${APP_ROLE}, p.oid, 'execute') as app_can
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.proname = ${PROOF_OK}`.execute(serving());
      expect(check).toEqual({ definer: false, public_can: false, app_can: false });
    });

    test('these are all the ways across the walls: no other security-definer function is open to the app role', async () => {
      const { rows } = await sql<{ name: string }>`
        select p.proname as name
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.prosecdef and has_function_privilege(${APP_ROLE}, p.oid, 'execute')
        order by 1`.execute(serving());
      expect(rows.map((row) => row.name)).toEqual([
        'applied_migrations', APPLIED_MODULE_MIGRATIONS, LIST_API_KEYS, LIST_MEMBERS, LIST_PENDING_INVITES, LOOKUP_ACTIVE_API_KEY, LOOKUP_INVITE_BY_TOKEN, LOOKUP_MEMBER_AUTH_STATE,
        LOOKUP_USER_BY_EMAIL, PRUNE_CREDENTIAL_CHANGES, READ_CREDENTIAL_CHANGES, WALL_KEY_STATE, WALL_TENANT, RECORD_API_KEY_USES,
        LOOKUP_EMAIL_TOKEN, CLAIM_MAIL, FINISH_MAIL, PRUNE_MAIL, READ_CHANGE_HEAD, LOOKUP_SESSION, RECORD_SESSION_USES, LOOKUP_PASSKEY, TOTP_FACTORS_EXIST,
        LOOKUP_SSO_DOMAIN_OWNER, LOOKUP_TENANT_BY_SLUG,
      ].sort());
    });

    test('the audit trail is append-only for the app role and walled like the rest', async () => {
      const a = await seedWalledTenant(storage());
      const b = await seedWalledTenant(storage());
      const ofA = anAuditEvent(a.tenant.id);
      const ofB = anAuditEvent(b.tenant.id);
      await storage().repos.auditEvents.append(ofA);
      await storage().repos.auditEvents.append(ofB);
      await storage().repos.auditEvents.append(anAuditEvent(null, { actorMethod: 'none', action: 'login.failed' }));

      const visible = await inTenant(walled(), a.tenant.id, (trx) => trx.selectFrom('audit_events').select('id').execute());
      expect(visible.map((row) => row.id)).toEqual([ofA.id]);
      await expect(inTenant(walled(), a.tenant.id, (trx) =>
        trx.insertInto('audit_events').values(auditRow(anAuditEvent(b.tenant.id))).execute(),
      )).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
      // No UPDATE or DELETE grant at all: even the tenant's own events cannot be rewritten.
      await expect(inTenant(walled(), a.tenant.id, (trx) =>
        trx.updateTable('audit_events').set({ action: 'login.succeeded' }).where('id', '=', ofA.id).execute(),
      )).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
      await expect(inTenant(walled(), a.tenant.id, (trx) =>
        trx.deleteFrom('audit_events').where('id', '=', ofA.id).execute(),
      )).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
      expect((await storage().repos.auditEvents.list(a.tenant.id, { limit: 10 })).map((e) => e.id)).toEqual([ofA.id]);
    });

    test("sessions are walled: a tenant's statements see, write and end none of another's, and none are deleted", async () => {
      const a = await seedWalledTenant(storage());
      const b = await seedWalledTenant(storage());
      const ofA = aSession(a.tenant.id, a.user.id);
      const ofB = aSession(b.tenant.id, b.user.id);
      await storage().repos.sessions.create(ofA);
      await storage().repos.sessions.create(ofB);

      const visible = await inTenant(walled(), a.tenant.id, (trx) => trx.selectFrom('sessions').select('id').execute());
      expect(visible.map((row) => row.id)).toEqual([ofA.id]);
      const ended = await inTenant(walled(), a.tenant.id, (trx) =>
        trx.updateTable('sessions').set({ ended_at: new Date(), end_reason: 'admin' }).returning('id').execute());
      expect(ended.map((row) => row.id)).toEqual([ofA.id]);
      await expect(inTenant(walled(), a.tenant.id, (trx) => trx.insertInto('sessions').values({
        id: randomUUID(), tenant_id: b.tenant.id, user_id: b.user.id, created_at: new Date(), last_seen_at: new Date(), authenticated_at: new Date(),
        user_agent: null, ip: null, ended_at: null, ended_by: null, end_reason: null,
      }).execute())).rejects.toThrow(/row-level security/);
      await expect(inTenant(walled(), b.tenant.id, (trx) => trx.deleteFrom('sessions').where('id', '=', ofB.id).execute()))
        .rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
      expect(await storage().repos.sessions.findLive(b.tenant.id, ofB.id)).not.toBeNull();
      expect(await storage().repos.sessions.findLive(b.tenant.id, ofA.id)).toBeNull();
    });

    test("second factors are walled: a tenant's statements see, change and delete none of another's authenticator apps or recovery codes", async () => {
      const a = await seedWalledTenant(storage());
      const b = await seedWalledTenant(storage());
      for (const { tenant, user } of [a, b]) {
        await storage().repos.totpFactors.create({
          id: randomUUID(), tenantId: tenant.id, userId: user.id, secret: 'v1.sealed', createdAt: new Date(), confirmedAt: null, lastUsedStep: null,
        });
        await storage().repos.recoveryCodes.replaceAll(tenant.id, user.id, [{
          id: randomUUID(), tenantId: tenant.id, userId: user.id, codeHash: randomUUID().replace(/-/g, '').repeat(2), createdAt: new Date(), usedAt: null,
        }]);
      }
      for (const table of ['totp_factors', 'recovery_codes'] as const) {
        const visible = await inTenant(walled(), a.tenant.id, (trx) => trx.selectFrom(table).select('tenant_id').execute());
        expect(visible.map((row) => row.tenant_id)).toEqual([a.tenant.id]);
        const deleted = await inTenant(walled(), a.tenant.id, (trx) => trx.deleteFrom(table).where('tenant_id', '=', b.tenant.id).returning('id').execute());
        expect(deleted).toEqual([]);
      }
      await expect(inTenant(walled(), a.tenant.id, (trx) => trx.insertInto('totp_factors').values({
        id: randomUUID(), tenant_id: b.tenant.id, user_id: randomUUID(), secret: 'x', created_at: new Date(), confirmed_at: null, last_used_step: null,
      }).execute())).rejects.toThrow(/row-level security/);
      expect(await storage().repos.totpFactors.findByMember(b.tenant.id, b.user.id)).not.toBeNull();
      expect(await storage().repos.recoveryCodes.countUnused(b.tenant.id, b.user.id)).toBe(1);
    });

    test("single sign-on is walled: a tenant's statements see and change none of another's connection, domains or identities", async () => {
      const a = await seedWalledTenant(storage());
      const b = await seedWalledTenant(storage());
      const { repos } = storage();
      for (const { tenant, user } of [a, b]) {
        await repos.ssoConnections.save(aConnection(tenant.id));
        await repos.ssoDomains.add(aDomainClaim(tenant.id));
        await repos.ssoIdentities.create({
          tenantId: tenant.id, issuer: 'https://idp.example.test', subject: randomUUID(), userId: user.id, createdAt: new Date(), lastSignInAt: new Date(),
        });
      }
      for (const table of ['sso_connections', 'sso_domains', 'sso_identities'] as const) {
        const visible = await inTenant(walled(), a.tenant.id, (trx) => trx.selectFrom(table).select('tenant_id').execute());
        expect(visible.map((row) => row.tenant_id)).toEqual([a.tenant.id]);
        const deleted = await inTenant(walled(), a.tenant.id, (trx) => trx.deleteFrom(table).where('tenant_id', '=', b.tenant.id).returning('tenant_id').execute());
        expect(deleted).toEqual([]);
      }
      const verified = await inTenant(walled(), a.tenant.id, (trx) =>
        trx.updateTable('sso_domains').set({ verified_at: new Date() }).where('tenant_id', '=', b.tenant.id).returning('domain').execute());
      expect(verified).toEqual([]);
      await expect(inTenant(walled(), a.tenant.id, (trx) => trx.insertInto('sso_domains').values({
        tenant_id: b.tenant.id, domain: 'planted.example.test', txt_value: 'x', verified_at: new Date(), created_at: new Date(),
      }).execute())).rejects.toThrow(/row-level security/);
      expect(await repos.ssoConnections.find(b.tenant.id)).not.toBeNull();
      expect(await repos.ssoDomains.listFor(b.tenant.id)).toHaveLength(1);

      // The owner lookup answers one exact, verified name, and nothing else of the row.
      const [claim] = await repos.ssoDomains.listFor(b.tenant.id);
      const owner = (domain: string) => sql<{ owner: string | null }>`select ${sql.id(LOOKUP_SSO_DOMAIN_OWNER)}(${domain}) as owner`.execute(serving());
      expect((await owner(claim!.domain)).rows).toEqual([{ owner: null }]);
      await repos.ssoDomains.markVerified(b.tenant.id, claim!.domain, new Date());
      expect((await owner(claim!.domain)).rows).toEqual([{ owner: b.tenant.id }]);
      expect((await owner('%')).rows).toEqual([{ owner: null }]);
    });
  });
}
