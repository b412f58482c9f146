import type { ErrorAnswer } from '../errors/error-mapper';
import type { Route } from '../routes/route';

/** What the HTTP app needs of one module (identity first, then the product modules), once it is built. */
export interface ModuleHttp {
  readonly name: string;
  /**
   * Its routes, each in its group: a `protected` one gets the group's authentication in front of it
   * whatever the module wrote, so a module cannot add a protected route that skips it; refusals (403,
   * a record of another tenant) are recorded in the audit trail like identity's.
   */
  readonly routes: readonly Route[];
  /** Its error codes, one record each: the status, and how a refusal is recorded. */
  readonly errors: Readonly<Record<string, ErrorAnswer>>;
}
