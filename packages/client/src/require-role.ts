import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { principalIfAny } from './principal';
import { type Role, roleLevel } from './roles';

/**
 * After the portcullis middleware: refuses a principal whose role is below `min` with 403
 * `Requires <min> role or higher`, as Portcullis does. Without a principal (the middleware is not
 * in front), 401 `Missing authentication`: a misplaced guard must not let a request through.
 */
export function requireRole(min: Role): RequestHandler {
  const needed = roleLevel(min);
  return (req: Request, res: Response, next: NextFunction): void => {
    const principal = principalIfAny(req);
    if (!principal) {
      res.status(401).json({ error: 'Missing authentication' });
      return;
    }
    if (roleLevel(principal.role) < needed) {
      res.status(403).json({ error: `Requires ${min} role or higher` });
      return;
    }
    next();
  };
}
