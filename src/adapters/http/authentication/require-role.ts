import { assertRoleAtLeast, type Role } from '../../../domain/role';
import type { NodeHandler } from '../fast-path/node-handler';
import { principalOf } from './request-principal';

/**
 * Placed before body parsing and validation: a caller without the role learns nothing about what a
 * valid body would look like, and gets 403 whatever it sent. The use-cases check again.
 */
export function requireRole(minimum: Role): NodeHandler {
  return (_req, res, next) => {
    assertRoleAtLeast(principalOf(res).role, minimum);
    next();
  };
}
