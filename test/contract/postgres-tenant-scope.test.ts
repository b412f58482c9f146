import { sql } from 'kysely';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/repositories/kysely-storage';
import { WALL_SETTING } from '../../src/adapters/persistence/kysely/migrations/0009-tenant-wall-proofs';
import { openServingPostgres, type ServingDatabase } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { EmailAlreadyRegistered } from '../../src/domain/errors';
import { describeIfPostgres } from '../support/postgres';
import { statementsDuring } from '../support/statement-counter';
import { aUser, anApiKey, anInvite, seedTenant, summaryOf } from './storage-fixtures';

/**
 * On Postgres a tenant-scoped call outside a unit of work is a transaction of its own, and the
 * lists that pages read often are one statement each. The tenant-walls suite proves the walls hold;
 * these cases pin what the pool sees: the statements each way sends, and nothing left behind by a
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

  test("the lists pages read are one statement each; any other call is BEGIN, the tenant's setting, its statements, COMMIT", async () => {
    const { repos } = storage();
    const { tenant, user } = await seedTenant(repos, 'admin');
    const invite = anInvite(tenant.id, user.id);
    await repos.invites.create(invite);
    const key = anApiKey(tenant.id, user.id);
    await repos.apiKeys.create(key);

    const lists = await statementsDuring('postgres', async () => {
      expect(await repos.users.listMembers(tenant.id)).toEqual([user]);
      expect(await repos.apiKeys.listForTenant(tenant.id)).toEqual([key]);
      expect(await repos.invites.listPending(tenant.id, new Date())).toEqual([summaryOf(invite)]);
    });
    expect(lists).toEqual([
      expect.stringContaining('list_members'), expect.stringContaining('list_api_keys'), expect.stringContaining('list_pending_invites'),
    ]);

    const other = await statementsDuring('postgres', async () => {
      expect(await repos.users.findById(tenant.id, user.id)).toEqual(user);
    });
    expect(other).toEqual(['begin', 'select set_config($1, $2, true)', expect.stringMatching(/^select .* from "users"/), 'commit']);
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
