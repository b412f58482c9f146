import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  PostgresDriver,
  type QueryResult,
} from 'kysely';
import type { Pool, PoolClient, QueryResult as PgResult } from 'pg';
import type { TenantBindableConnection } from './tenant-scope';
import { TenantBoundQuery } from './tenant-bound-query';

export interface PipeliningPostgresConfig {
  readonly pool: Pool;
  /** Once per physical connection, before its first statement (e.g. SET ROLE). */
  readonly onCreateConnection?: (connection: DatabaseConnection) => Promise<void>;
}

/**
 * Kysely's Postgres dialect, with connections that can carry the tenant setting in the same round
 * trip as each statement (TenantBindableConnection, used by tenant-scope.ts). Compiler, adapter,
 * introspector and transaction statements are Kysely's own.
 */
export class PipeliningPostgresDialect extends PostgresDialect {
  constructor(private readonly settings: PipeliningPostgresConfig) {
    super({ pool: settings.pool });
  }

  override createDriver(): Driver {
    return new PipeliningPostgresDriver(this.settings);
  }
}

/** Kysely's PostgresDriver for transactions and savepoints; its own connections otherwise. */
class PipeliningPostgresDriver extends PostgresDriver {
  private readonly connections = new WeakMap<PoolClient, PipeliningConnection>();
  private pool: Pool | undefined;

  constructor(private readonly settings: PipeliningPostgresConfig) {
    super({ pool: settings.pool });
    this.pool = settings.pool;
  }

  override async init(): Promise<void> {}

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.pool) throw new Error('driver has already been destroyed');
    const client = await this.pool.connect();
    if (!this.pool) {
      client.release();
      throw new Error('driver has already been destroyed');
    }
    let connection = this.connections.get(client);
    if (!connection) {
      connection = new PipeliningConnection(client);
      this.connections.set(client, connection);
      // pg has no hook for a new physical connection: a client seen for the first time is one.
      try {
        await this.settings.onCreateConnection?.(connection);
      } catch (error) {
        this.connections.delete(client);
        client.release(error instanceof Error ? error : true); // destroys it rather than pooling it
        throw error;
      }
    }
    return connection;
  }

  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PipeliningConnection).release();
  }

  override async destroy(): Promise<void> {
    const { pool } = this;
    this.pool = undefined;
    if (pool && !pool.ended && !pool.ending) await pool.end();
  }
}

function toQueryResult<R>({ command, rowCount, rows }: Pick<PgResult, 'command' | 'rowCount' | 'rows'>): QueryResult<R> {
  const changes = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
  return { numAffectedRows: changes ? BigInt(rowCount ?? 0) : undefined, rows: (rows ?? []) as R[] };
}

class PipeliningConnection implements TenantBindableConnection {
  private tenant: { readonly setting: string; readonly value: string } | undefined;

  constructor(private readonly client: PoolClient) {}

  bindTenant(setting: string, value: string): void {
    this.tenant = { setting, value };
  }

  unbindTenant(): void {
    this.tenant = undefined;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { tenant } = this;
    if (!tenant) return toQueryResult<R>(await this.client.query(query.sql, [...query.parameters]));
    const result = await new Promise<Pick<PgResult, 'command' | 'rowCount' | 'rows'>>((resolve, reject) => {
      this.client.query(new TenantBoundQuery(tenant.setting, tenant.value, query.sql, query.parameters, (error, answer) => {
        if (error) reject(error);
        else resolve(answer!);
      }));
    });
    return toQueryResult<R>(result);
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not used by this service');
  }

  release(): void {
    this.tenant = undefined;
    this.client.release();
  }
}
