import { type Kysely, sql, type Transaction } from 'kysely';
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
 * Outside a unit of work each call is a transaction of its own; statements of several calls that
 * must commit together belong in a unit of work.
 */
export interface TenantScope {
  readonly db: Kysely<DB>;
  readonly walls: TenantWalls;
  forTenant<T>(tenantId: string, statement: (db: Kysely<DB>) => Promise<T>): Promise<T>;
}

/**
 * Transaction-local (is_local): it ends with the transaction, so a pooled connection never carries
 * it on. A bound parameter, never a literal: another session of the role may read a statement's text.
 */
async function setTenant(db: Kysely<DB>, walls: TenantWalls, tenantId: string): Promise<void> {
  await sql`select set_config(${WALL_SETTING}, ${walls.setting(tenantId)}, true)`.execute(db);
}

/**
 * Outside a unit of work: each call is its own transaction, BEGIN, the setting, the statements,
 * COMMIT, on every backend. The reads that pages and credential checks make often do not come
 * this way: they call security-definer functions that check the tenant's proof themselves, one
 * statement each (migrations 0008, 0009 and 0012).
 */
export function standaloneScope(db: Kysely<DB>, walls: TenantWalls): TenantScope {
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
