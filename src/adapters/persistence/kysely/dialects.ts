import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, type DatabaseConnection, Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { Pool } from 'pg';
import { PipeliningPostgresDialect } from './pipelining-postgres-dialect';
import type { DB } from './schema';

/** An open database and the one way to let go of it (ends the pool, or shuts PGlite down). */
export interface OpenDatabase {
  readonly db: Kysely<DB>;
  close(): Promise<void>;
}

export interface PostgresOptions {
  /** Pool size; every open transaction holds one connection. */
  readonly max?: number;
  /** Errors of idle pooled connections (server restart, network drop); without a listener pg crashes the process. */
  readonly onIdleError?: (error: Error) => void;
  /**
   * A role every new connection switches to (SET ROLE) before its first query, so the pool works
   * as that role rather than as the login user. Without it, connections act as the login user.
   */
  readonly role?: string;
}

const DEFAULT_POOL_SIZE = 10;
// A wrong or unreachable server should fail a request (and startup) quickly, not hang it.
const CONNECT_TIMEOUT_MS = 5000;
const PGLITE_MEMORY = 'memory://';

export function openPostgres(connectionString: string, options: PostgresOptions = {}): OpenDatabase {
  const pool = new Pool({ connectionString, max: options.max ?? DEFAULT_POOL_SIZE, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  pool.on('error', options.onIdleError ?? ((error) => console.error('postgres: idle connection error:', error)));
  const { role } = options;
  // Once per physical connection, not per checkout: the role lasts for the connection's session.
  const onCreateConnection = role === undefined ? undefined : (connection: DatabaseConnection) => setRole(connection, role);
  const db = new Kysely<DB>({ dialect: new PipeliningPostgresDialect({ pool, onCreateConnection }) });
  return {
    db,
    // Kysely only tears down a driver it has used, so a pool that never ran a query is ended here.
    close: async () => {
      await db.destroy();
      if (!pool.ended && !pool.ending) await pool.end();
    },
  };
}

/**
 * Embedded Postgres, for development and tests. `dataDir` is `memory://` (gone on close) or a
 * folder path; its parent folders are created, PGlite makes the folder itself. PGlite has a
 * single connection, so the dialect runs transactions one at a time.
 */
export async function openPglite(dataDir: string): Promise<OpenDatabase> {
  if (!dataDir.startsWith(PGLITE_MEMORY)) mkdirSync(dirname(dataDir), { recursive: true });
  // create() rather than the constructor: a bad data dir then fails here, not on the first query.
  const pglite = await PGlite.create(dataDir);
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    // Kysely closes PGlite through the dialect's driver, but only once a query has run.
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/** SET ROLE takes an identifier, which cannot be a bound parameter: quoted here instead. */
async function setRole(connection: DatabaseConnection, role: string): Promise<void> {
  await connection.executeQuery(CompiledQuery.raw(`set role "${role.replace(/"/g, '""')}"`));
}
