import type { RequestHandler } from 'express';
import { assertRoleAtLeast, type Role } from '../../domain/role';
import { principalOf } from './request-principal';

/**
 * Placed before body parsing and validation: a caller without the role learns nothing about what a
 * valid body would look like, and gets 403 whatever it sent. The use-cases check again.
 */
export function requireRole(minimum: Role): RequestHandler {
  return (_req, res, next) => {
    assertRoleAtLeast(principalOf(res).role, minimum);
    next();
  };
}
