/**
 * The storage surface a product module's adapters build on: the migration helper that walls its
 * tables, and the shapes of its repositories over each backend. A module's persistence adapters
 * import only this file (and kysely itself); .dependency-cruiser.js refuses the rest of src/adapters.
 */
export { disableTenantWall, enableTenantWall, type TablePrivilege, type TenantWallOptions } from './tenant-wall-migration';
export type { MemoryTables, ModuleStorageAdapters, ModuleStore } from './module-store';
export type { ModuleMigrations } from './module-migrations';
