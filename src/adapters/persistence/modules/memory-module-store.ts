import { holdCaller } from '../../../application/authentication/hold-caller';
import { assertSameTenant, type TenantTransaction, type TenantUnitOfWork } from '../../../application/modules/tenant-unit-of-work';
import type { Repositories } from '../../../application/ports/repositories';
import type { UnitOfWork } from '../../../application/ports/unit-of-work';
import type { MemoryTables, ModuleStorageAdapters, ModuleStore } from './module-store';

/**
 * Module storage in memory, inside identity's memory unit of work: a module's run is one of its
 * runs, so it is serialised with every other, and the audit events it appends go into the same
 * draft and are kept only if the module's work succeeds. The module's own state is one value per
 * tenant; a run works on a copy of its tenant's and the copy replaces it only on success.
 */
export function memoryModuleStore(identity: UnitOfWork): ModuleStore {
  const states = new Map<string, Map<string, unknown>>();
  return {
    unitOfWork: <R, S>(adapters: ModuleStorageAdapters<R, S>) => {
      const { name } = adapters.memory;
      if (!states.has(name)) states.set(name, new Map());
      return memoryTenantUnitOfWork(identity, adapters.memory, states.get(name) as Map<string, S>);
    },
  };
}

function memoryTenantUnitOfWork<S, R>(identity: UnitOfWork, tables: MemoryTables<S, R>, committed: Map<string, S>): TenantUnitOfWork<R> {
  const stateOf = (tenantId: string): S => committed.get(tenantId) ?? tables.empty();
  const run = <T>(tenantId: string, work: (tx: TenantTransaction<R>) => Promise<T>, first?: (repos: Repositories) => Promise<unknown>) =>
    identity.run(async (repos) => {
      await first?.(repos);
      const draft = tables.copy(stateOf(tenantId));
      const value = await work({
        repos: tables.repositories(draft),
        audit: {
          append: async (event) => {
            assertSameTenant(event, tenantId);
            await repos.auditEvents.append(event);
          },
        },
      });
      // Identity's run keeps its draft (the events) once this resolves; nothing can fail in between.
      committed.set(tenantId, draft);
      return value;
    });
  return {
    run: (tenantId, work) => run(tenantId, work),
    runAs: (caller, minimum, work) => run(caller.tenantId, work, (repos) => holdCaller(repos.users, caller, minimum)),
    read: (tenantId, work) => identity.run(async () => work(tables.repositories(tables.copy(stateOf(tenantId))))),
  };
}
