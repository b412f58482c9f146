import { type Kysely, sql, type Transaction } from 'kysely';
import { TENANT_SETTING } from './migrations/0002-tenant-walls';
import type { DB } from './schema';

/**
 * How a repository reaches the walled tables. The row-level security policies let a statement see
 * and write only the rows of the tenant in the transaction-local TENANT_SETTING, so every
 * tenant-scoped statement runs through `forTenant`, which makes that setting the tenant the
 * statement itself names. The global lookups call security-definer functions on `db` directly.
 */
export interface TenantScope {
  readonly db: Kysely<DB>;
  forTenant<T>(tenantId: string, statement: (db: Kysely<DB>) => Promise<T>): Promise<T>;
}

/** Transaction-local (is_local): it ends with the transaction, so a pooled connection never carries it on. */
async function setTenant(db: Kysely<DB>, tenantId: string): Promise<void> {
  await sql`select set_config(${TENANT_SETTING}, ${tenantId}, true)`.execute(db);
}

/** Outside a unit of work: each tenant-scoped statement is its own short transaction. */
export function standaloneScope(db: Kysely<DB>): TenantScope {
  return {
    db,
    forTenant: (tenantId, statement) =>
      db.transaction().execute(async (trx) => {
        await setTenant(trx, tenantId);
        return statement(trx);
      }),
  };
}

/**
 * Inside a unit of work: the setting is changed only when the named tenant differs from the one
 * already set in this transaction (a signup sets it once). Calls are queued, so two started
 * together cannot interleave a statement of one with the other's tenant.
 */
export function transactionScope(trx: Transaction<DB>): TenantScope {
  let current: string | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    db: trx,
    forTenant(tenantId, statement) {
      const result = queue.then(async () => {
        if (current !== tenantId) {
          await setTenant(trx, tenantId);
          current = tenantId;
        }
        return statement(trx);
      });
      queue = result.catch(() => undefined);
      return result;
    },
  };
}
