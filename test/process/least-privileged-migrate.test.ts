import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { describeIfPostgres } from '../support/postgres';
import { SERVICE_TENANT_WALL_KEY, ServiceProcess } from '../support/service-process';
import { uniqueEmail } from '../support/test-use-cases';
import { runCommand, type CommandResult } from '../support/run-command';

const ROOT = join(__dirname, '..', '..');

/** The DBA's block of docs/operations.md ("A least-privileged database login"), statement by statement. */
function documentedDbaSetup(): string[] {
  const doc = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
  const marker = doc.indexOf('runs this block as the DBA');
  expect(marker).toBeGreaterThan(0);
  const block = /```sql\n([\s\S]*?)```/.exec(doc.slice(marker))![1]!;
  return block.split('\n').filter((line) => !line.startsWith('--')).join('\n')
    .split(';').map((statement) => statement.trim()).filter(Boolean);
}

async function asLogin<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `npm run <script>` from the repository (which needs `npm run build`), with only the environment given. */
function npmRun(script: string, env: Record<string, string>): Promise<CommandResult> {
  return runCommand('npm', ['run', '-s', script], env);
}

function withUser(url: string, user: string, database?: string): string {
  const parsed = new URL(url);
  parsed.username = user;
  parsed.password = '';
  if (database) parsed.pathname = `/${database}`;
  return parsed.toString();
}

describeIfPostgres('migrating and serving with least-privileged logins, as docs/operations.md says', (dbaUrl) => {
  const suffix = randomBytes(5).toString('hex');
  const owner = `pc_owner_${suffix}`;
  const web = `pc_web_${suffix}`;
  const database = `pc_lp_${suffix}`;
  let service: ServiceProcess | undefined;

  afterAll(async () => {
    service?.kill();
    await asLogin(dbaUrl, async (dba) => {
      await dba.query(`drop database if exists "${database}" with (force)`);
      for (const role of [web, owner]) await dba.query(`drop role if exists "${role}"`);
    });
  });

  it('the DBA\'s block, then `npm run migrate` with the owner\'s URL alone and with both, then the service as the serving login', async () => {
    await asLogin(dbaUrl, async (dba) => {
      // The cluster already has the app role (another database made it), as a shared cluster does.
      await dba.query(`do $$ begin if not exists (select from pg_roles where rolname = 'portcullis_app') then create role portcullis_app nologin; end if; end $$`);
      for (const statement of documentedDbaSetup()) {
        if (/^CREATE ROLE portcullis_app\b/i.test(statement)) continue; // "unless it exists already"
        await dba.query(statement
          .replace(/\bportcullis_owner\b/g, `"${owner}"`)
          .replace(/\bportcullis_web\b/g, `"${web}"`)
          .replace(/\bDATABASE portcullis\b/g, `DATABASE "${database}"`)
          .replace(/ PASSWORD '[^']*'/g, '')); // the test cluster trusts local logins
      }
      const { rows } = await dba.query<{ rolsuper: boolean; rolcreaterole: boolean; rolcreatedb: boolean; rolbypassrls: boolean }>(
        'select rolsuper, rolcreaterole, rolcreatedb, rolbypassrls from pg_roles where rolname = $1', [owner]);
      expect(rows).toEqual([{ rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolbypassrls: false }]);
    });
    const ownerUrl = withUser(dbaUrl, owner, database);
    const webUrl = withUser(dbaUrl, web, database);
    const production = { NODE_ENV: 'production', TENANT_WALL_KEY: SERVICE_TENANT_WALL_KEY };

    const first = await npmRun('migrate', { ...production, MIGRATION_DATABASE_URL: ownerUrl });
    expect(first.stderr).toBe('');
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toMatch(/applied 0001-initial, 0002-tenant-walls, /);

    const again = await npmRun('migrate', { ...production, MIGRATION_DATABASE_URL: ownerUrl, DATABASE_URL: webUrl });
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toMatch(/already up to date/);

    // The serving login alone: nothing to migrate, every power it has is the app role's.
    service = await ServiceProcess.start({ DATABASE_URL: webUrl });
    const signup = await fetch(`${service.url}/api/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail('least'), password: 'correct horse battery', tenant_name: 'Least' }),
    });
    expect(signup.status).toBe(201);
    expect(service.logs.filter((line) => line.level === 'warn' && String(line.msg).includes('more power'))).toEqual([]);
    const { rows } = await asLogin(webUrl, (client) => client.query<{ tenants: string }>('select count(*) as tenants from tenants'));
    expect(rows).toEqual([{ tenants: '0' }]); // outside the walls, the serving login sees no tenant
  }, 240_000);
});
