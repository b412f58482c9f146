import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import { APP_ROLE } from '../../src/adapters/persistence/kysely/migrations/0002-tenant-walls';
import type { DB } from '../../src/adapters/persistence/kysely/schema';

/**
 * Tests check invariants at rest and set up states no endpoint reaches (an expired invite), across
 * tenants: work the walls exist to refuse the service. This Kysely borrows one of the serving
 * database's connections per query or transaction, switches it back to the session's login user
 * (the owner) while lent, and back to the app role before returning it. Borrowing, rather than a
 * second pool, is what works on PGlite too: it has one session, shared with the service.
 */
export function ownerView(serving: Kysely<DB>): Kysely<DB> {
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new LendingDriver(serving),
      createQueryCompiler: () => new PostgresQueryCompiler(),
      createIntrospector: (db) => new PostgresIntrospector(db),
    },
  });
}

class LendingDriver implements Driver {
  private readonly giveBack = new Map<DatabaseConnection, () => void>();

  constructor(private readonly serving: Kysely<DB>) {}

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    return new Promise((lend, fail) => {
      this.serving
        .connection()
        .execute(async (conn) => {
          await conn.executeQuery(CompiledQuery.raw('set role none'));
          const lent: DatabaseConnection = {
            executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> => conn.executeQuery<R>(query),
            streamQuery: () => {
              throw new Error('ownerView does not stream');
            },
          };
          await new Promise<void>((returned) => {
            this.giveBack.set(lent, returned);
            lend(lent);
          });
          await conn.executeQuery(CompiledQuery.raw(`set role ${APP_ROLE}`));
        })
        .catch(fail);
    });
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.giveBack.get(connection)?.();
    this.giveBack.delete(connection);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  /** The serving database is closed by its own owner. */
  async destroy(): Promise<void> {}
}
