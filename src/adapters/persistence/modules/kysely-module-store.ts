import type { Kysely } from 'kysely';
import { holdCaller } from '../../../application/authentication/hold-caller';
import { assertSameTenant, type TenantTransaction, type TenantUnitOfWork } from '../../../application/modules/tenant-unit-of-work';
import { KyselyAuditEventRepository } from '../kysely/repositories/audit-event-repository';
import { KyselyUserRepository } from '../kysely/repositories/user-repository';
import type { DB } from '../kysely/schema';
import { standaloneScope, type TenantScope, transactionScope } from '../kysely/driver/tenant-scope';
import type { TenantWalls } from '../kysely/driver/tenant-walls';
import type { ModuleStorageAdapters, ModuleStore } from './module-store';

/**
 * Module storage on Postgres or PGlite, over the serving database (the walled app role). A run is one
 * transaction whose tenant setting is made before the module's work starts and never changes, so
 * every statement the module runs is confined by the row-level policies of its tables (walled by
 * enableTenantWall) whatever its WHERE clause says. A read is the same, a transaction of its own
 * (tenant-scope.ts's standaloneScope).
 */
export function kyselyModuleStore(database: { readonly db: Kysely<DB>; readonly walls: TenantWalls }): ModuleStore {
  return {
    unitOfWork: <R, S>(adapters: ModuleStorageAdapters<R, S>) => kyselyTenantUnitOfWork(database.db, database.walls, adapters.kysely),
  };
}

function kyselyTenantUnitOfWork<R>(db: Kysely<DB>, walls: TenantWalls, repositories: (db: Kysely<DB>) => R): TenantUnitOfWork<R> {
  const standalone = standaloneScope(db, walls);
  const run = <T>(tenantId: string, work: (tx: TenantTransaction<R>) => Promise<T>, first?: (scope: TenantScope) => Promise<unknown>) =>
    db.transaction().execute(async (trx) => {
      const scope = transactionScope(trx, walls);
      await scope.forTenant(tenantId, async () => undefined); // sets it once, for the whole transaction
      await first?.(scope);
      const trail = new KyselyAuditEventRepository(scope);
      return work({
        repos: repositories(trx),
        audit: {
          append: async (event) => {
            assertSameTenant(event, tenantId); // another tenant's event would switch the setting mid-run
            await trail.append(event);
          },
        },
      });
    });
  return {
    run: (tenantId, work) => run(tenantId, work),
    runAs: (caller, minimum, work) =>
      run(caller.tenantId, work, (scope) => holdCaller(new KyselyUserRepository(scope), caller, minimum)),
    read: (tenantId, work) => standalone.forTenant(tenantId, (bound) => work(repositories(bound))),
  };
}
