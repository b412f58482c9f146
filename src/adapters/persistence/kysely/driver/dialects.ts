import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { Pool } from 'pg';
import { translateConnectionFailures } from './connection-failures';
import { roleOption } from './role-option';
import { type EmbeddedDatabaseLock, lockEmbeddedDatabase } from './embedded-database-lock';
import type { InProcessListen } from '../change-feed/pglite-change-listener';
import type { DB } from '../schema';

/** An open database and the one way to let go of it (ends the pool, or shuts PGlite down). */
export interface OpenDatabase {
  readonly db: Kysely<DB>;
  close(): Promise<void>;
  /** The pool's connections right now (Postgres only: PGlite has one session and no pool). */
  readonly poolStats?: () => PoolStats;
  /** PGlite only: LISTEN in this process (Postgres is listened to on a connection of its own). */
  readonly listen?: InProcessListen;
  /** PGlite only: the data directory as a tarball, which another embedded database can start from (`openPglite`'s `from`). */
  readonly dump?: () => Promise<Blob>;
}

export interface PoolStats {
  /** Connections open, checked out or idle. */
  readonly total: number;
  readonly idle: number;
  /** Checkouts queued because every connection is in use (and the pool is at its size). */
  readonly waiting: number;
}

export interface PostgresOptions {
  /** Pool size; every open transaction holds one connection. */
  readonly max?: number;
  /** Errors of idle pooled connections (server restart, network drop); without a listener pg crashes the process. */
  readonly onConnectionError?: (error: Error) => void;
  /**
   * A role every connection takes at start-up (what SET ROLE sets) before its first query, so the pool works
   * as that role rather than as the login user. Without it, connections act as the login user.
   */
  readonly role?: string;
  /**
   * How long a checkout may wait, for a new connection or for a busy pool to free one, before it
   * fails (StorageUnavailable). A wrong or unreachable server fails a request quickly, never hangs it.
   */
  readonly connectTimeoutMs?: number;
  /**
   * The server cancels a statement that runs longer (statement_timeout), and the client gives up
   * on an answer a second after that (query_timeout), for a server that no longer answers at all.
   * Unset: no limit, which is what migrations want.
   */
  readonly statementTimeoutMs?: number;
}

const DEFAULT_POOL_SIZE = 10;
const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
// The client's own limit is later than the server's, so a slow statement is reported by the server.
const QUERY_TIMEOUT_MARGIN_MS = 1000;
const PGLITE_MEMORY = 'memory://';

/**
 * The embedded server's buffer cache, inside PGlite's WebAssembly memory, which only grows: at
 * Postgres's default size it grew that memory under load, at this one it does not
 * (docs/benchmarks.md, "Figures behind choices in the code"). The data files themselves are already
 * in this process (in memory, or in the page cache of a folder on disk), so a larger cache mostly
 * holds them twice.
 */
const PGLITE_SETTINGS = ['-c', 'shared_buffers=16MB'];

export function openPostgres(connectionString: string, options: PostgresOptions = {}): OpenDatabase {
  const { statementTimeoutMs } = options;
  const pool = new Pool({
    connectionString,
    max: options.max ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // TCP keep-alive, so a connection to a server that vanished is found dead, not waited on.
    keepAlive: true,
    ...(options.role === undefined ? {} : { options: roleOption(options.role) }),
    ...(statementTimeoutMs === undefined
      ? {}
      : { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS }),
  });
  pool.on('error', options.onConnectionError ?? ((error: Error) => console.error('postgres: idle connection error:', error)));
  // The pool listens for errors only on idle connections. A checked-out one whose socket dies
  // (mid-transaction, when the network drops) emits 'error' too, and an unheard 'error' event
  // would end the process. Nothing to do here: the query in flight fails with the same error (and
  // is reported with its request), and the pool drops the connection when it comes back.
  pool.on('connect', (client) => client.on('error', ignoreCheckedOutError));
  const db = new Kysely<DB>({ dialect: translateConnectionFailures(new PostgresDialect({ pool })) });
  return {
    db,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
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
 * single connection, so the dialect runs transactions one at a time. `from`, a dump of another
 * embedded database (PGlite's dumpDataDir), is where a new one starts instead of an empty cluster.
 */
export async function openPglite(dataDir: string, from?: Blob): Promise<OpenDatabase> {
  let lock: EmbeddedDatabaseLock | undefined;
  if (!dataDir.startsWith(PGLITE_MEMORY)) {
    mkdirSync(dirname(dataDir), { recursive: true });
    // A folder is one process's at a time (embedded-database-lock.ts); throws EmbeddedDatabaseInUse.
    lock = lockEmbeddedDatabase(dataDir);
  }
  try {
    // create() rather than the constructor: a bad data dir then fails here, not on the first query.
    // Loaded only when used: a service on Postgres never loads the embedded database.
    const [{ PGlite }, { PGliteDialect }] = await Promise.all([import('@electric-sql/pglite'), import('kysely-pglite-dialect')]);
    const pglite = await PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS], loadDataDir: from });
    const db = new Kysely<DB>({ dialect: translateConnectionFailures(new PGliteDialect(pglite)) });
    return {
      db,
      listen: (channel, onPayload) => pglite.listen(channel, onPayload),
      dump: () => pglite.dumpDataDir('none'),
      // Kysely closes PGlite through the dialect's driver, but only once a query has run.
      close: async () => {
        try {
          await db.destroy();
          if (!pglite.closed) await pglite.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

function ignoreCheckedOutError(): void {}
