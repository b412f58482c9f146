import { join } from 'node:path';
import { openPostgres } from '../../src/adapters/persistence/kysely/driver/dialects';
import { openServingPostgres } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { parseServiceKeyCommand } from '../../src/bootstrap/service-key-command';
import { ALL_TENANTS, namedTenants } from '../../src/domain/service-key';
import { describeIfPostgres } from '../support/postgres';
import { aTenant } from '../contract/storage-fixtures';
import { runCommand, type CommandResult } from '../support/run-command';

const ROOT = join(__dirname, '..', '..');
const COMMAND = join(ROOT, 'src', 'bootstrap', 'service-key.ts');

describe('the service-key command line: what an operator must say', () => {
  const a = '6f1c2a4e-1111-4c8e-9f60-0a1b2c3d4e5f';
  const b = '0b9e2a4e-2222-4c8e-9f60-0a1b2c3d4e5f';

  it('creates a key for all tenants only when told so, or for the tenants named', () => {
    expect(parseServiceKeyCommand(['create', 'worker', '--all-tenants'])).toEqual({ command: 'create', name: 'worker', scope: ALL_TENANTS });
    expect(parseServiceKeyCommand(['create', 'worker', '--tenant', b, '--tenant', a.toUpperCase()]))
      .toEqual({ command: 'create', name: 'worker', scope: namedTenants([a, b]) });
  });

  it('refuses a create that does not say which tenants (there is no default), or says both, or names none', () => {
    for (const args of [
      ['create', 'worker'],
      ['create', 'worker', '--tenant'],
      ['create', 'worker', '--all-tenants', '--tenant', a],
      ['create', 'worker', '--tenant', a, '--all-tenants'],
      ['create', '--all-tenants'],
      ['create', 'worker', '--tenants', a],
    ]) {
      expect({ args, parsed: parseServiceKeyCommand(args) }).toEqual({ args, parsed: null });
    }
  });

  it('lists and revokes as before', () => {
    expect(parseServiceKeyCommand(['list'])).toEqual({ command: 'list' });
    expect(parseServiceKeyCommand(['revoke', 'worker'])).toEqual({ command: 'revoke', idOrName: 'worker' });
    expect(parseServiceKeyCommand(['list', 'extra'])).toBeNull();
    expect(parseServiceKeyCommand([])).toBeNull();
  });
});

function run(args: string[], env: Record<string, string>): Promise<CommandResult> {
  return runCommand(process.execPath, ['--import', 'tsx', COMMAND, ...args], env);
}

describeIfPostgres('the service-key command line on Postgres', (url) => {
  const env = { DATABASE_URL: url };
  let tenantId: string;
  beforeAll(async () => {
    const opened = await openServingPostgres(url, { max: 1 }); // migrated
    await opened.close();
    const owner = openPostgres(url, { max: 1 });
    const tenant = aTenant();
    await owner.db.insertInto('tenants').values({ id: tenant.id, name: tenant.name, slug: tenant.slug, created_at: tenant.createdAt }).execute();
    await owner.close();
    tenantId = tenant.id;
  }, 60_000);

  it('makes a key scoped to the tenant named, and lists its scope; refuses a tenant that does not exist and a create without a scope', async () => {
    const name = `cli-${process.pid}-${Date.now()}`;
    const created = await run(['create', name, '--tenant', tenantId], env);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toContain(`${name}  pcsk_`);
    expect(created.stdout).toContain(`tenants ${tenantId}`);
    expect(created.stdout).toMatch(/\npcsk_[0-9a-f]{64}\n/);

    const everyone = await run(['create', `${name}-all`, '--all-tenants'], env);
    expect(everyone.code).toBe(0);
    expect(everyone.stdout).toContain('all tenants');

    const listed = await run(['list'], env);
    expect(listed.stdout).toMatch(new RegExp(`${name} +pcsk_[0-9a-f]+… +tenants ${tenantId}`));

    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await run(['create', `${name}-x`, '--tenant', unknown], env)).toMatchObject({ code: 1, stderr: `No tenant with id ${unknown}.\n` });
    expect(await run(['create', `${name}-y`, '--tenant', 'not-a-uuid'], env)).toMatchObject({ code: 1, stderr: 'Not a tenant id: "not-a-uuid"\n' });
    const noScope = await run(['create', `${name}-z`], env);
    expect(noScope.code).toBe(2);
    expect(noScope.stderr).toContain('--all-tenants');

    for (const revoked of [name, `${name}-all`]) expect((await run(['revoke', revoked], env)).code).toBe(0);
  }, 120_000);
});
