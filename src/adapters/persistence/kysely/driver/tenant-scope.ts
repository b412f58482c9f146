import { type DatabaseConnection, type Kysely, sql, type Transaction } from 'kysely';
import { WALL_SETTING } from '../migrations/0009-tenant-wall-proofs';
import type { DB } from '../schema';
import type { TenantWalls } from './tenant-walls';

/**
 * How a repository reaches the walled tables. The row-level security policies let a statement see
 * and write only the rows of the tenant in the transaction-local WALL_SETTING, and only when the
 * setting carries that tenant's proof; so every tenant-scoped statement runs through `forTenant`,
 * which makes that setting the tenant the statement itself names, with its proof. The global
 * lookups call security-definer functions on `db` directly, with the proofs `walls` makes.
 *
 * Outside a unit of work every statement of `statement` is its own transaction with the setting;
 * statements that must commit together belong in a unit of work.
 */
export interface TenantScope {
  readonly db: Kysely<DB>;
  readonly walls: TenantWalls;
  forTenant<T>(tenantId: string, statement: (db: Kysely<DB>) => Promise<T>): Promise<T>;
}

/**
 * A connection that can send the tenant setting in the same round trip as each statement
 * (pipelining-postgres-dialect.ts): while bound, every statement goes out as
 * `set_config(setting, value, true)` plus the statement, run by Postgres as one implicit
 * transaction. Bound only while the connection is checked out for one `forTenant` call.
 */
export interface TenantBindableConnection extends DatabaseConnection {
  bindTenant(setting: string, value: string): void;
  unbindTenant(): void;
}

export function isTenantBindable(connection: DatabaseConnection): connection is TenantBindableConnection {
  return typeof (connection as Partial<TenantBindableConnection>).bindTenant === 'function';
}

/**
 * Transaction-local (is_local): it ends with the transaction, so a pooled connection never carries
 * it on. A bound parameter, never a literal: another session of the role may read a statement's text.
 */
async function setTenant(db: Kysely<DB>, walls: TenantWalls, tenantId: string): Promise<void> {
  await sql`select set_config(${WALL_SETTING}, ${walls.setting(tenantId)}, true)`.execute(db);
}

/**
 * Outside a unit of work, the portable way: each call is its own explicit transaction, BEGIN, the
 * setting, the statement, COMMIT (four round trips). Used on connections that cannot pipeline
 * (PGlite, where a round trip is a function call anyway).
 */
export function transactionPerCallScope(db: Kysely<DB>, walls: TenantWalls): TenantScope {
  return {
    db,
    walls,
    forTenant: (tenantId, statement) =>
      db.transaction().execute(async (trx) => {
        await setTenant(trx, walls, tenantId);
        return statement(trx);
      }),
  };
}

/**
 * Outside a unit of work, on Postgres: one round trip per statement. The connection is checked out
 * for the call and bound to the tenant, so each statement carries its own set_config in the same
 * implicit transaction (see TenantBoundQuery), and the binding ends before the connection goes back
 * to the pool. Whether the driver's connections can do this is learnt on the first call; if not,
 * every call takes the transaction-per-call path.
 */
export function standaloneScope(db: Kysely<DB>, walls: TenantWalls): TenantScope {
  const portable = transactionPerCallScope(db, walls);
  let pipelining: boolean | undefined;
  return {
    db,
    walls,
    forTenant(tenantId, statement) {
      if (pipelining === false) return portable.forTenant(tenantId, statement);
      return db.connection().execute(async (bound) => {
        // getExecutor is Kysely's (documented as internal) way to the connection it has checked out.
        const connection = await bound.getExecutor().provideConnection(async (checkedOut) => checkedOut);
        pipelining = isTenantBindable(connection);
        if (!isTenantBindable(connection)) return transactionPerCallScope(bound, walls).forTenant(tenantId, statement);
        connection.bindTenant(WALL_SETTING, walls.setting(tenantId));
        try {
          return await statement(bound);
        } finally {
          connection.unbindTenant();
        }
      });
    },
  };
}

/**
 * Inside a unit of work: the setting is changed only when the named tenant differs from the one
 * already set in this transaction (a signup sets it once). Calls are queued, so two started
 * together cannot interleave a statement of one with the other's tenant.
 */
export function transactionScope(trx: Transaction<DB>, walls: TenantWalls): TenantScope {
  let current: string | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    db: trx,
    walls,
    forTenant(tenantId, statement) {
      const result = queue.then(async () => {
        if (current !== tenantId) {
          await setTenant(trx, walls, tenantId);
          current = tenantId;
        }
        return statement(trx);
      });
      queue = result.catch(() => undefined);
      return result;
    },
  };
}
