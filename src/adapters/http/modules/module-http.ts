import type { RouteDefinition } from '../routes/route-group';
import type { RefusalKind } from '../authentication/audit-refusals';

/** What the HTTP app needs of one product module, once the module is built. */
export interface ModuleHttp {
  readonly name: string;
  /** No authentication: each route's own handlers decide (they pass the global rate limit like every route). */
  readonly publicRoutes: readonly RouteDefinition[];
  /**
   * Behind the protected group's authentication, which the app prepends to every one of these
   * routes: a module cannot add a protected route that skips it. Refusals (403, a record of another
   * tenant) are recorded in the audit trail like identity's.
   */
  readonly protectedRoutes: readonly RouteDefinition[];
  /** The module's error codes: each one's status, and whether it means "not in your tenant" for the trail. */
  readonly errors: Readonly<Record<string, ModuleErrorAnswer>>;
}

export interface ModuleErrorAnswer {
  readonly status: number;
  /** For a not-found answer about a record of the caller's tenant: the record's kind, recorded with an access.denied event. */
  readonly notInTenant?: string;
}

/** The modules' error statuses and refusal kinds, merged, for the error mapper and the refusal recorder. */
export function moduleErrorTables(modules: readonly ModuleHttp[]): {
  statuses: Record<string, number>;
  refusals: Record<string, RefusalKind | null>;
} {
  const statuses: Record<string, number> = {};
  const refusals: Record<string, RefusalKind | null> = {};
  for (const module of modules) {
    for (const [code, answer] of Object.entries(module.errors)) {
      statuses[code] = answer.status;
      refusals[code] = answer.notInTenant === undefined ? null : { tenant: answer.notInTenant };
    }
  }
  return { statuses, refusals };
}
