import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export interface FreshDatabase {
  readonly name: string;
  /** `serverUrl` pointing at the new database. */
  readonly url: string;
  /** Drops the database, ending any session still on it. */
  drop(): Promise<void>;
}

async function asAdmin(serverUrl: string, statement: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * An empty database on the same cluster, for a test that needs one of its own (another service's
 * database, a key installed from scratch). The server's login must be allowed to create databases.
 */
export async function createFreshDatabase(serverUrl: string): Promise<FreshDatabase> {
  const name = `pc_test_db_${randomBytes(6).toString('hex')}`;
  await asAdmin(serverUrl, `create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => asAdmin(serverUrl, `drop database if exists "${name}" with (force)`),
  };
}
