import type { Kysely } from 'kysely';
import type { TenantUnitOfWork } from '../../../application/modules/tenant-unit-of-work';

/**
 * A module's records in memory: its own tables for one tenant, as plain values. The memory backend
 * keeps one state per tenant and hands a run only its own tenant's, so a repository that forgot to
 * filter by tenant still sees nothing of another's.
 */
export interface MemoryTables<S, R> {
  /**
   * Names the state, as a table name does on SQL storage: every unit of work of one store made with
   * the same name works on the same records (two repositories over one table).
   */
  readonly name: string;
  /** A tenant's state before its first write. */
  empty(): S;
  /** A copy a run may change: kept when the run succeeds, dropped when it fails. Maps of immutable records copy with `new Map(old)`. */
  copy(state: S): S;
  repositories(state: S): R;
}

/** A module's repositories over each backend; the platform picks the one it runs on. */
export interface ModuleStorageAdapters<R, S> {
  /**
   * Over a Kysely handle that works as the service's role behind the tenant wall (a transaction
   * whose tenant is set, or a connection bound to it): type it as the module's own tables.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly kysely: (db: Kysely<any>) => R;
  readonly memory: MemoryTables<S, R>;
}

/** What the platform hands a module for its storage: tenant-scoped units of work over its own tables. */
export interface ModuleStore {
  unitOfWork<R, S>(adapters: ModuleStorageAdapters<R, S>): TenantUnitOfWork<R>;
}
