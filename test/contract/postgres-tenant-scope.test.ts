import { sql } from 'kysely';
import { Client } from 'pg';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/repositories/kysely-storage';
import { WALL_SETTING } from '../../src/adapters/persistence/kysely/migrations/0009-tenant-wall-proofs';
import { openServingPostgres, type ServingDatabase } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { EmailAlreadyRegistered } from '../../src/domain/errors';
import { describeIfPostgres } from '../support/postgres';
import { aUser, anInvite, seedTenant, summaryOf } from './storage-fixtures';

/**
 * On Postgres a tenant-scoped statement outside a unit of work sends its tenant setting in the same
 * round trip (TenantBoundQuery). The tenant-walls suite proves the walls hold through it; these
 * cases pin what is particular to it: one query per statement, and nothing left behind by a
 * statement that fails or by calls that overlap, on a pool of one connection.
 */
describeIfPostgres('postgres tenant scope', (url) => {
  let opened: ServingDatabase | undefined;
  beforeAll(async () => {
    opened = await openServingPostgres(url, { max: 1 });
  });
  afterAll(async () => {
    await opened?.close();
  });
  const storage = () => createKyselyStorage(opened!, async () => undefined);
  const settingOnConnection = async () => {
    const { rows: [row] } = await sql<{ value: string | null }>`select current_setting(${WALL_SETTING}, true) as value`.execute(opened!.db);
    return row?.value ?? '';
  };

  test('a tenant-scoped read outside a unit of work is one query to the server, not BEGIN, set, SELECT, COMMIT', async () => {
    const { repos } = storage();
    const { tenant, user } = await seedTenant(repos, 'admin');
    const invite = anInvite(tenant.id, user.id);
    await repos.invites.create(invite);

    const sent = jest.spyOn(Client.prototype, 'query');
    try {
      expect(await repos.users.listMembers(tenant.id)).toEqual([user]);
      // GET /invites' read checks the tenant's proof in its own function: one statement, no setting at all.
      expect(await repos.invites.listPending(tenant.id, new Date())).toEqual([summaryOf(invite)]);
      expect(sent).toHaveBeenCalledTimes(2);
    } finally {
      sent.mockRestore();
    }
  });

  test('a statement that fails is rolled back with its setting, and the connection serves the next call', async () => {
    const { repos } = storage();
    const { tenant, user } = await seedTenant(repos, 'admin');

    await expect(repos.users.create(aUser(tenant.id, { email: user.email }))).rejects.toBeInstanceOf(EmailAlreadyRegistered);
    expect(await settingOnConnection()).toBe('');
    expect(await repos.users.findById(tenant.id, user.id)).toEqual(user);
  });

  test('calls for different tenants started together each see only their own rows', async () => {
    const { repos } = storage();
    const tenants = await Promise.all(Array.from({ length: 4 }, async () => {
      const { tenant, user } = await seedTenant(repos, 'admin');
      return { tenantId: tenant.id, user };
    }));

    const lists = await Promise.all(tenants.flatMap(({ tenantId }) => [1, 2, 3].map(() => repos.users.listMembers(tenantId))));
    lists.forEach((list, i) => expect(list).toEqual([tenants[Math.floor(i / 3)]!.user]));
    expect(await settingOnConnection()).toBe('');
  });
});
