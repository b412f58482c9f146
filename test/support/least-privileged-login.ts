import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { openPostgres } from '../../src/adapters/persistence/kysely/driver/dialects';
import { migrateAll } from '../../src/adapters/persistence/modules/module-migrations';
import { APP_ROLE } from '../../src/adapters/persistence/kysely/migrations/0002-tenant-walls';

export interface ServingLogin {
  /** The login's name (cluster-wide, unique to this run). */
  readonly name: string;
  /** `ownerUrl` with this login as its user. */
  readonly url: string;
  /** Ends the login's sessions and drops it. */
  drop(): Promise<void>;
}

/**
 * A login made the way docs/operations.md tells an operator to: a LOGIN role that is a member of
 * the app role and nothing else. Roles belong to the cluster, so the name carries a random suffix,
 * and the caller drops it when done. The schema is migrated first (as the owner), which also makes
 * the app role if it is missing.
 */
export async function createServingLogin(ownerUrl: string): Promise<ServingLogin> {
  const owner = openPostgres(ownerUrl, { max: 1 });
  const name = `pc_test_login_${randomBytes(6).toString('hex')}`;
  try {
    await migrateAll(owner.db);
    await sql`create role ${sql.id(name)} login in role ${sql.id(APP_ROLE)}`.execute(owner.db);
  } finally {
    await owner.close();
  }
  const url = new URL(ownerUrl);
  url.username = name;
  url.password = '';
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const admin = openPostgres(ownerUrl, { max: 1 });
      try {
        await sql`select pg_terminate_backend(pid) from pg_stat_activity where usename = ${name}`.execute(admin.db);
        // The start granted it CONNECT on the database (a role holding a grant cannot be dropped).
        await sql`drop owned by ${sql.id(name)}`.execute(admin.db);
        await sql`drop role if exists ${sql.id(name)}`.execute(admin.db);
      } finally {
        await admin.close();
      }
    },
  };
}

/** One login shared by every suite of a test file: made on first use, dropped in the file's afterAll. */
export function sharedServingLogin(ownerUrl: () => string): { get(): Promise<ServingLogin>; drop(): Promise<void> } {
  let made: Promise<ServingLogin> | undefined;
  return {
    get: () => (made ??= createServingLogin(ownerUrl())),
    drop: async () => {
      if (made) await (await made).drop();
    },
  };
}
