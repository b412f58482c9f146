import type { Migration } from 'kysely';
import type { TenantUnitOfWork } from '../../application/modules/tenant-unit-of-work';
import type { AuditTrail } from '../../application/audit/audit-trail';
import type { Clock } from '../../application/ports/clock';
import type { IdGenerator } from '../../application/ports/ids';
import type { ModuleAuditAction } from '../../domain/audit-event';
import type { ErrorAnswer } from '../../adapters/http/errors/error-mapper';
import type { Route } from '../../adapters/http/routes/route';
import type { ModuleStore } from '../../adapters/persistence/modules/module-store';

/**
 * A product module: a small hexagon of its own (its domain, use-cases, storage and routes) that
 * Portcullis serves behind the same authentication, tenant walls and audit trail as identity.
 * docs/modules.md walks through writing one; examples/notes is the template.
 *
 * The composition root takes a list of modules after identity (main(modules)); adding one is one
 * line there. Everything a module declares is checked when the service starts (composeModules), so
 * a clash with identity or another module stops the start rather than shadowing a route or an error.
 *
 * `Code` is the union of the module's error codes (ErrorCodesOf<typeof errors>): `errors` must then
 * give every one of them a status, or the module does not compile.
 */
export interface PortcullisModule<Code extends string = string> {
  /** Lower case letters, digits and `_`, starting with a letter: names its migration table (`<name>_kysely_migration`). */
  readonly name: string;
  /** Applied after identity's, in key order, recorded apart from identity's and other modules'. */
  readonly migrations?: Readonly<Record<string, Migration>>;
  /**
   * Its part of the API reference: a file of the module's project, absolute or relative to the folder
   * the service runs in, its project's root (`examples/notes/openapi.yaml` here). Merged into the
   * served /api/v1/openapi.json; here, linted with the rest (`npm run lint:openapi`).
   */
  readonly apiReference?: string;
  /** The actions its use-cases append to the audit trail: `<noun>.<verb>`, unused by identity or another module. */
  readonly auditActions?: readonly ModuleAuditAction[];
  /**
   * Every error code of the module, one record each: its HTTP status (the message is the error's
   * own), and whether it means "not in your tenant" (`notInTenant`: the record's kind) for the trail.
   */
  readonly errors: Readonly<Record<Code, ErrorAnswer>>;
  /**
   * Builds the use-cases and routes once the platform is up. Called once, at start. Each route names
   * its group: `public`, or `protected` (the platform puts authentication in front of it). Paths are
   * full (`/api/v1/notes`), outside identity's `/api/v1/auth` and the platform's own paths.
   */
  build(platform: ModulePlatform): readonly Route[] | Promise<readonly Route[]>;
}

/**
 * What the platform hands a module, and all it hands it (beside the kits it may import: the route
 * declaration and its answers, the DTO decorators).
 */
export interface ModulePlatform {
  /** Tenant-scoped units of work over the module's own tables, on the service's storage backend. */
  readonly store: ModuleStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Builds audit events (fresh ordered ids, the clock, the request's origin); append them through a TenantTransaction. */
  readonly trail: AuditTrail;
}

export type { ErrorAnswer, ModuleStore, Route, TenantUnitOfWork };
