import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type QueryCompiler, type QueryResult, type TransactionSettings } from 'kysely';
import { StorageUnavailable } from '../../../../application/ports/storage-unavailable';
import { isConnectionFailure } from './pg-errors';

function translated(error: unknown): unknown {
  return error instanceof StorageUnavailable || !isConnectionFailure(error) ? error : new StorageUnavailable(error);
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw translated(error);
  }
}

/**
 * The dialect with every driver call guarded: an error that means "the database is unreachable or
 * not answering" (pg-errors.ts) leaves as StorageUnavailable, whatever repository, transaction or
 * pool checkout it came from; every other error (a unique violation, a bad statement) is untouched.
 * One place at the bottom of the adapter, rather than a try/catch in each repository method.
 */
export function translateConnectionFailures(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => new TranslatingDriver(dialect.createDriver()),
  };
}

class TranslatingDriver implements Driver {
  /** The driver's own connection behind each one handed out: begin, commit and release need it. */
  private readonly inner = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(private readonly driver: Driver) {}

  init(): Promise<void> {
    return guarded(() => this.driver.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await guarded(() => this.driver.acquireConnection());
    const wrapped: DatabaseConnection = {
      executeQuery: <R>(query: Parameters<DatabaseConnection['executeQuery']>[0]): Promise<QueryResult<R>> =>
        guarded(() => connection.executeQuery<R>(query)),
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    this.inner.set(wrapped, connection);
    return wrapped;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return guarded(() => this.driver.beginTransaction(this.unwrap(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return guarded(() => this.driver.commitTransaction(this.unwrap(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return guarded(() => this.driver.rollbackTransaction(this.unwrap(connection)));
  }

  // Savepoints (trx.savepoint()): Kysely asks the driver for each step, and throws "not supported
  // by this driver" when it has none. Forwarded to the wrapped driver (Kysely's Postgres driver);
  // one without them (PGlite's) gets the same Postgres statements on its connection.
  savepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    return this.savepointStep('savepoint', 'savepoint', connection, name, compileQuery);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    return this.savepointStep('rollbackToSavepoint', 'rollback to savepoint', connection, name, compileQuery);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    return this.savepointStep('releaseSavepoint', 'release savepoint', connection, name, compileQuery);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    const original = this.unwrap(connection);
    this.inner.delete(connection);
    return this.driver.releaseConnection(original);
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }

  private savepointStep(
    step: 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint',
    command: string,
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    const inner = this.unwrap(connection);
    const forward = this.driver[step]?.bind(this.driver);
    return guarded(async () => {
      if (forward) await forward(inner, name, compileQuery);
      else await inner.executeQuery(CompiledQuery.raw(`${command} "${name.replace(/"/g, '""')}"`));
    });
  }

  private unwrap(connection: DatabaseConnection): DatabaseConnection {
    return this.inner.get(connection) ?? connection;
  }
}
