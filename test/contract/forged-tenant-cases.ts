import { LIST_API_KEYS, LIST_MEMBERS } from '../../src/adapters/persistence/kysely/migrations/0012-tenant-list-reads';
import { CLAIM_MAIL, FINISH_MAIL, MAIL_SUBJECT, PRUNE_MAIL } from '../../src/adapters/persistence/kysely/migrations/0013-email-tokens-and-outbox';
import { randomBytes, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { auditRow } from '../../src/adapters/persistence/kysely/repositories/audit-event-repository';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/repositories/kysely-storage';
import { LOOKUP_USER_BY_EMAIL, TENANT_SETTING } from '../../src/adapters/persistence/kysely/migrations/0002-tenant-walls';
import { TENANT_OF_RECORD } from '../../src/adapters/persistence/kysely/migrations/0005-change-triggers-and-record-tenant';
import { LOOKUP_MEMBER_AUTH_STATE, RECORD_API_KEY_USES } from '../../src/adapters/persistence/kysely/migrations/0008-credential-check-statements';
import {
  LIST_PENDING_INVITES, PROOF_OK, TENANT_WALL_KEYS, WALL_SETTING, WALL_TENANT,
} from '../../src/adapters/persistence/kysely/migrations/0009-tenant-wall-proofs';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import type { ServingDatabase } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { TenantWalls } from '../../src/adapters/persistence/kysely/driver/tenant-walls';
import { anAuditEvent } from './cases/audit-event-cases';
import { aUser, anApiKey, anInvite, seedTenant } from './storage-fixtures';

const INSUFFICIENT_PRIVILEGE = '42501';
const UNDEFINED_FUNCTION = '42883';

export interface ForgedTenantSetting {
  /** The database as the service opened it: its genuine proofs seed the tenants and are the controls. */
  readonly serving: () => ServingDatabase;
  /** A connection running whatever SQL it likes as the service's login (an injection, or DATABASE_URL's holder). */
  readonly attacker: () => Kysely<DB>;
  /** Outside the walls, to read what is really there. */
  readonly owner: () => Kysely<DB>;
}

/** Tenant B with one row in every walled table, and tenant A, whose member is the attacker. */
async function seedVictim(serving: ServingDatabase) {
  const { repos } = createKyselyStorage(serving, async () => undefined);
  const a = await seedTenant(repos, 'owner');
  const b = await seedTenant(repos, 'owner');
  const key = anApiKey(b.tenant.id, b.user.id);
  const invite = anInvite(b.tenant.id, b.user.id);
  const event = anAuditEvent(b.tenant.id);
  await repos.apiKeys.create(key);
  await repos.invites.create(invite);
  await repos.auditEvents.append(event);
  return { a, b: { ...b, key, invite, event } };
}

type Victim = Awaited<ReturnType<typeof seedVictim>>;

/**
 * Every way the login can try to name tenant B without B's proof. A's proof is what an injected
 * statement inside A's own request can read back from its transaction's setting; another
 * database's key is what a login of that database's service knows.
 */
function forgedSettings({ a, b }: Victim, walls: TenantWalls): [string, { readonly name: string; readonly value: string }][] {
  const other = new TenantWalls(`another database's key ${randomUUID()}`);
  return [
    ['the old setting, naming B', { name: TENANT_SETTING, value: b.tenant.id }],
    ["B's id with no proof", { name: WALL_SETTING, value: b.tenant.id }],
    ["B's id with a made-up proof", { name: WALL_SETTING, value: `${b.tenant.id}:${randomBytes(32).toString('hex')}` }],
    ["B's id with A's proof", { name: WALL_SETTING, value: `${b.tenant.id}:${walls.tenantProof(a.tenant.id)}` }],
    ["B's id with its proof under another database's key", { name: WALL_SETTING, value: other.setting(b.tenant.id) }],
    ["B's id with the proof of B's owner's e-mail", { name: WALL_SETTING, value: `${b.tenant.id}:${walls.emailProof(b.user.email)}` }],
    ["B's id and proof in capitals", { name: WALL_SETTING, value: walls.setting(b.tenant.id).toUpperCase() }],
  ];
}

/**
 * Proof that the tenant context cannot be forged: someone running SQL as the service's login sets
 * the walls' setting (or the old one) as they please, and reads, writes and learns nothing of a
 * tenant whose proof they do not have, audit trail included; the definer functions that cross the
 * walls answer nothing without a proof either. Each case has its control: the genuine proof works.
 */
export function describeForgedTenantCases(name: string, setting: ForgedTenantSetting): void {
  describe(`forged tenant context: ${name}`, () => {
    let victim: Victim;
    beforeAll(async () => {
      victim = await seedVictim(setting.serving());
    });
    const walls = () => setting.serving().walls;
    const as = <T>(context: { name: string; value: string } | null, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> =>
      setting.attacker().transaction().execute(async (trx) => {
        if (context) await sql`select set_config(${context.name}, ${context.value}, true)`.execute(trx);
        return work(trx);
      });
    const genuine = () => ({ name: WALL_SETTING, value: walls().setting(victim.b.tenant.id) });
    const contexts = () => [['no setting at all', null] as const, ...forgedSettings(victim, walls())];

    test("the control: with B's own proof the attacker's connection sees B's rows", async () => {
      const { b } = victim;
      const seen = await as(genuine(), async (trx) => ({
        users: await trx.selectFrom('users').select('id').execute(),
        events: await trx.selectFrom('audit_events').select('id').execute(),
        wall: (await sql<{ tenant: string | null }>`select ${sql.id(WALL_TENANT)}() as tenant`.execute(trx)).rows[0]?.tenant,
      }));
      expect(seen).toEqual({ users: [{ id: b.user.id }], events: [{ id: b.event.id }], wall: b.tenant.id });
    });

    test('reads: no row of B (nor of anyone) in any walled table, audit trail included', async () => {
      for (const [label, context] of contexts()) {
        const seen = await as(context, async (trx) => [
          ...(await trx.selectFrom('tenants').select('id').execute()),
          ...(await trx.selectFrom('users').select('id').execute()),
          ...(await trx.selectFrom('api_keys').select('id').execute()),
          ...(await trx.selectFrom('tenant_invites').select(['id', 'token']).execute()),
          ...(await trx.selectFrom('audit_events').select('id').execute()),
        ]);
        expect({ label, seen }).toEqual({ label, seen: [] });
        const wall = await as(context, (trx) => sql<{ tenant: string | null }>`select ${sql.id(WALL_TENANT)}() as tenant`.execute(trx));
        expect({ label, wall: wall.rows[0]?.tenant }).toEqual({ label, wall: null });
      }
    });

    test("inserts: no row for B in any walled table, and no tenant-less audit event", async () => {
      const { b } = victim;
      for (const [label, context] of contexts()) {
        const user = aUser(b.tenant.id);
        const key = anApiKey(b.tenant.id, b.user.id);
        const invite = anInvite(b.tenant.id, b.user.id);
        const tenantId = randomUUID();
        const inserts = [
          (trx: Kysely<DB>) => trx.insertInto('users').values({
            id: user.id, tenant_id: b.tenant.id, email: user.email, password_hash: user.passwordHash, role: 'owner', created_at: new Date(),
          }).execute(),
          (trx: Kysely<DB>) => trx.insertInto('api_keys').values({
            id: key.id, tenant_id: b.tenant.id, user_id: b.user.id, key_prefix: key.keyPrefix, key_hash: key.keyHash, revoked: false, created_at: new Date(),
          }).execute(),
          (trx: Kysely<DB>) => trx.insertInto('tenant_invites').values({
            id: invite.id, tenant_id: b.tenant.id, email: invite.email, role: 'admin', token: invite.token,
            invited_by: b.user.id, expires_at: invite.expiresAt, accepted_at: null, created_at: new Date(),
          }).execute(),
          (trx: Kysely<DB>) => trx.insertInto('tenants').values({ id: tenantId, name: 'Forged', slug: `forged-${tenantId}`, created_at: new Date() }).execute(),
          (trx: Kysely<DB>) => trx.insertInto('audit_events').values(auditRow(anAuditEvent(b.tenant.id, { action: 'member.removed' }))).execute(),
          (trx: Kysely<DB>) => trx.insertInto('audit_events').values(auditRow(anAuditEvent(null, { actorMethod: 'none', action: 'login.failed' }))).execute(),
        ];
        for (const insert of inserts) {
          await expect(as(context, insert).then(() => `${label}: written`)).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
        }
      }
      const owner = setting.owner();
      expect(await owner.selectFrom('audit_events').select('id').where('tenant_id', '=', b.tenant.id).execute()).toEqual([{ id: b.event.id }]);
    });

    test("updates and deletes: nothing of B changes", async () => {
      const { b } = victim;
      for (const [label, context] of contexts()) {
        const changed = await as(context, async (trx) => [
          ...(await trx.updateTable('users').set({ role: 'viewer', email: 'taken@example.test' }).returning('id').execute()),
          ...(await trx.updateTable('api_keys').set({ revoked: true }).returning('id').execute()),
          ...(await trx.updateTable('tenant_invites').set({ accepted_at: new Date() }).returning('id').execute()),
          ...(await trx.updateTable('tenants').set({ name: 'Taken over' }).returning('id').execute()),
          ...(await trx.deleteFrom('tenant_invites').returning('id').execute()),
        ]);
        expect({ label, changed }).toEqual({ label, changed: [] });
        // The audit trail has no UPDATE or DELETE grant at all.
        await expect(as(context, (trx) => trx.updateTable('audit_events').set({ action: 'login.succeeded' }).execute()))
          .rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
      }
      const owner = setting.owner();
      expect(await owner.selectFrom('users').select(['role', 'email']).where('id', '=', b.user.id).executeTakeFirst())
        .toEqual({ role: 'owner', email: b.user.email });
      expect(await owner.selectFrom('api_keys').select('revoked').where('id', '=', b.key.id).executeTakeFirst()).toEqual({ revoked: false });
      expect(await owner.selectFrom('tenant_invites').select('accepted_at').where('id', '=', b.invite.id).executeTakeFirst()).toEqual({ accepted_at: null });
      expect(await owner.selectFrom('tenants').select('name').where('id', '=', b.tenant.id).executeTakeFirst()).toEqual({ name: b.tenant.name });
    });

    test('the definer functions answer nothing about B without a proof over their arguments', async () => {
      const { a, b } = victim;
      const attacker = setting.attacker();
      const other = new TenantWalls(`another database's key ${randomUUID()}`);
      const wrongProofs = [null, '', randomBytes(32).toString('hex'), walls().tenantProof(a.tenant.id), other.tenantProof(b.tenant.id)];
      const now = new Date();
      for (const proof of wrongProofs) {
        const answers = {
          member: (await sql`select * from ${sql.id(LOOKUP_MEMBER_AUTH_STATE)}(${b.tenant.id}::uuid, ${b.user.id}::uuid, ${proof})`.execute(attacker)).rows,
          invites: (await sql`select * from ${sql.id(LIST_PENDING_INVITES)}(${b.tenant.id}::uuid, ${now}, ${proof})`.execute(attacker)).rows,
          members: (await sql`select * from ${sql.id(LIST_MEMBERS)}(${b.tenant.id}::uuid, ${proof})`.execute(attacker)).rows,
          keys: (await sql`select * from ${sql.id(LIST_API_KEYS)}(${b.tenant.id}::uuid, ${proof})`.execute(attacker)).rows,
          uses: (await sql<{ moved: number }>`
            select ${sql.id(RECORD_API_KEY_USES)}(${[b.key.id]}::uuid[], ${[b.tenant.id]}::uuid[], ${[now.toISOString()]}::timestamptz[], ${[proof]}::text[]) as moved`
            .execute(attacker)).rows,
        };
        expect({ proof, answers }).toEqual({ proof, answers: { member: [], invites: [], members: [], keys: [], uses: [{ moved: 0 }] } });
      }
      // The e-mail lookup wants the e-mail's proof: not a tenant's, not one under another key.
      for (const proof of [null, randomBytes(32).toString('hex'), walls().tenantProof(b.tenant.id), other.emailProof(b.user.email)]) {
        const { rows } = await sql`select * from ${sql.id(LOOKUP_USER_BY_EMAIL)}(${b.user.email}, ${proof})`.execute(attacker);
        expect({ proof, rows }).toEqual({ proof, rows: [] });
      }
      expect((await setting.owner().selectFrom('api_keys').select('last_used_at').where('id', '=', b.key.id).executeTakeFirst())).toEqual({ last_used_at: null });

      // The controls: with the genuine proofs each answers.
      const member = await sql`
        select * from ${sql.id(LOOKUP_MEMBER_AUTH_STATE)}(${b.tenant.id}::uuid, ${b.user.id}::uuid, ${walls().tenantProof(b.tenant.id)})`.execute(attacker);
      expect(member.rows).toEqual([{ role: 'owner', auth_version: 0 }]);
      const invites = await sql<{ id: string }>`
        select id from ${sql.id(LIST_PENDING_INVITES)}(${b.tenant.id}::uuid, ${now}, ${walls().tenantProof(b.tenant.id)})`.execute(attacker);
      expect(invites.rows).toEqual([{ id: b.invite.id }]);
      const members = await sql<{ id: string }>`select id from ${sql.id(LIST_MEMBERS)}(${b.tenant.id}::uuid, ${walls().tenantProof(b.tenant.id)})`.execute(attacker);
      expect(members.rows).toEqual([{ id: b.user.id }]);
      const keys = await sql<{ id: string }>`select id from ${sql.id(LIST_API_KEYS)}(${b.tenant.id}::uuid, ${walls().tenantProof(b.tenant.id)})`.execute(attacker);
      expect(keys.rows).toEqual([{ id: b.key.id }]);
      const user = await sql<{ id: string }>`select id from ${sql.id(LOOKUP_USER_BY_EMAIL)}(${b.user.email}, ${walls().emailProof(b.user.email)})`.execute(attacker);
      expect(user.rows).toEqual([{ id: b.user.id }]);
    });

    test("the outbox: the login may add a message for no tenant but its proven one, and reads, claims or finishes none without the service's proof", async () => {
      const { a, b } = victim;
      // Due long ago and held (a lease for centuries), so that the mail workers of other tests on this
      // database, which claim by the real clock, leave it alone; the claims below are made as of a time
      // when every lease is over and every message due, and the genuine one takes just the oldest: this.
      const due = new Date('1999-01-01T00:00:00.000Z');
      const mail = { id: randomUUID(), tenantId: b.tenant.id, kind: 'password-reset', recipient: b.user.email, input: { token: 'x'.repeat(64) }, createdAt: due };
      await createKyselyStorage(setting.serving(), async () => undefined).repos.outbox.enqueue(mail);
      await setting.owner().updateTable('mail_outbox').set({ leased_until: new Date('2999-01-01T00:00:00.000Z') }).where('id', '=', mail.id).execute();
      const row = {
        id: randomUUID(), tenant_id: b.tenant.id, kind: 'password-reset', recipient: a.user.email,
        input: sql`'{}'::jsonb`, next_attempt_at: due, leased_until: null, created_at: due, finished_at: null, last_error: null,
      };
      for (const [, context] of [...contexts(), ['A\'s own proof', { name: WALL_SETTING, value: walls().setting(a.tenant.id) }] as const]) {
        await expect(as(context, (trx) => trx.insertInto('mail_outbox').values(row).execute())).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
      }
      await expect(as(genuine(), (trx) => trx.selectFrom('mail_outbox').select('input').execute())).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });

      const other = new TenantWalls(`another database's key ${randomUUID()}`);
      const now = new Date('3000-01-01T00:00:00.000Z');
      for (const proof of [null, '', randomBytes(32).toString('hex'), walls().tenantProof(b.tenant.id), other.proof(MAIL_SUBJECT)]) {
        const claimed = (await sql`select * from ${sql.id(CLAIM_MAIL)}(${now}::timestamptz, ${now}::timestamptz, 100, ${proof})`.execute(setting.attacker())).rows;
        const finished = (await sql<{ done: boolean }>`
          select ${sql.id(FINISH_MAIL)}(${mail.id}::uuid, 0, 'sent', ${now}::timestamptz, null, null, ${proof}) as done`.execute(setting.attacker())).rows;
        const pruned = (await sql<{ dropped: number }>`
          select ${sql.id(PRUNE_MAIL)}('infinity'::timestamptz, ${proof}) as dropped`.execute(setting.attacker())).rows;
        expect({ proof, claimed, finished, pruned }).toEqual({ proof, claimed: [], finished: [{ done: false }], pruned: [{ dropped: 0 }] });
      }
      const genuineClaim = await sql<{ id: string }>`
        select id from ${sql.id(CLAIM_MAIL)}(${now}::timestamptz, ${now}::timestamptz, 1, ${walls().proof(MAIL_SUBJECT)})`.execute(setting.attacker());
      expect(genuineClaim.rows.map((claimed) => claimed.id)).toEqual([mail.id]);
      const left = await setting.owner().selectFrom('mail_outbox').select(['recipient', 'status']).where('id', '=', mail.id).executeTakeFirst();
      expect(left).toEqual({ recipient: b.user.email, status: 'pending' });
      await setting.owner().updateTable('mail_outbox').set({ status: 'failed' }).where('id', '=', mail.id).execute();
    });

    test("nothing tells which tenant holds an id, and the key and its check are out of the login's reach", async () => {
      await expect(sql`select ${sql.id(TENANT_OF_RECORD)}('member', ${victim.b.user.id}::uuid)`.execute(setting.attacker()))
        .rejects.toMatchObject({ code: UNDEFINED_FUNCTION });
      await expect(sql`select * from ${sql.table(TENANT_WALL_KEYS)}`.execute(setting.attacker()))
        .rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
      await expect(sql`select ${sql.id(PROOF_OK)}('check', ${'0'.repeat(64)})`.execute(setting.attacker()))
        .rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
    });
  });
}
