import type { AuditEvent } from '../../domain/audit-event';
import type { Principal } from '../../domain/principal';
import type { Role } from '../../domain/role';

/** What one tenant-scoped transaction hands a module's work. */
export interface TenantTransaction<R> {
  /** The module's own repositories, bound to this transaction and to the run's tenant. */
  readonly repos: R;
  /**
   * The platform's audit trail, in the same transaction: the event commits or rolls back with the
   * change it records. Refuses (throws) an event of any tenant but the run's.
   */
  readonly audit: { append(event: AuditEvent): Promise<void> };
}

/**
 * A module's storage, walled by tenant. Every statement the work runs sees and writes only the rows
 * of `tenantId`: on SQL storage the database's row-level security enforces it (the module's tables
 * are walled by its migration: enableTenantWall), so a WHERE clause the module forgets leaks
 * nothing; the memory backend hands the work that tenant's records only.
 */
export interface TenantUnitOfWork<R> {
  /**
   * Runs `work` atomically: its writes (and audit events) commit when the promise resolves and are
   * all rolled back, keeping nothing, when it rejects (the rejection is rethrown).
   */
  run<T>(tenantId: string, work: (tx: TenantTransaction<R>) => Promise<T>): Promise<T>;
  /**
   * `run` in the caller's tenant, for work done in the caller's name that their role allows: before
   * the work starts, the transaction reads the caller's role again and holds it until it commits. A
   * demotion or removal committed since the request was authenticated refuses the work (the
   * contract's 403 `Requires <minimum> role or higher`, or the credential's 401 when the caller is
   * gone); one committed later waits for the work. The role the request came with is moments old;
   * this is what keeps a write from being made on the strength of a role already taken away.
   */
  runAs<T>(caller: Principal, minimum: Role, work: (tx: TenantTransaction<R>) => Promise<T>): Promise<T>;
  /**
   * For reads: a short transaction of its own behind the same wall, with no caller's role held.
   * Writes belong in `run`.
   */
  read<T>(tenantId: string, work: (repos: R) => Promise<T>): Promise<T>;
}

/** The refusal every backend makes of an audit event for another tenant than the run's. */
export function assertSameTenant(event: AuditEvent, tenantId: string): void {
  if (event.tenantId !== tenantId) {
    throw new Error(`audit event for tenant ${String(event.tenantId)} appended in a unit of work of tenant ${tenantId}`);
  }
}
