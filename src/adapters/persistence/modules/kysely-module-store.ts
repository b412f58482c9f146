import type { Kysely } from 'kysely';
import { assertSameTenant, type TenantUnitOfWork } from '../../../application/modules/tenant-unit-of-work';
import { KyselyAuditEventRepository } from '../kysely/repositories/audit-event-repository';
import type { DB } from '../kysely/schema';
import { standaloneScope, transactionScope } from '../kysely/driver/tenant-scope';
import type { TenantWalls } from '../kysely/driver/tenant-walls';
import type { ModuleStorageAdapters, ModuleStore } from './module-store';

/**
 * Module storage on Postgres or PGlite, over the serving database (the walled app role). A run is one
 * transaction whose tenant setting is made before the module's work starts and never changes, so
 * every statement the module runs is confined by the row-level policies of its tables (walled by
 * enableTenantWall) whatever its WHERE clause says. Reads take the same path as identity's
 * tenant-scoped reads: on Postgres one round trip per statement (tenant-scope.ts).
 */
export function kyselyModuleStore(database: { readonly db: Kysely<DB>; readonly walls: TenantWalls }): ModuleStore {
  return {
    unitOfWork: <R, S>(adapters: ModuleStorageAdapters<R, S>) => kyselyTenantUnitOfWork(database.db, database.walls, adapters.kysely),
  };
}

function kyselyTenantUnitOfWork<R>(db: Kysely<DB>, walls: TenantWalls, repositories: (db: Kysely<DB>) => R): TenantUnitOfWork<R> {
  const standalone = standaloneScope(db, walls);
  return {
    run: (tenantId, work) =>
      db.transaction().execute(async (trx) => {
        const scope = transactionScope(trx, walls);
        await scope.forTenant(tenantId, async () => undefined); // sets it once, for the whole transaction
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
      }),
    read: (tenantId, work) => standalone.forTenant(tenantId, (bound) => work(repositories(bound))),
  };
}
