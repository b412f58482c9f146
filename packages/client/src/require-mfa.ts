import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { principalIfAny } from './principal';

/**
 * After the portcullis middleware, beside requireRole: refuses a caller that did not sign in with a
 * second factor (its `amr` has no `mfa`) with 403 `Second factor required`. An API key is a machine
 * credential and never has one: a route behind this guard is for people. Without a principal,
 * 401 `Missing authentication`, as requireRole.
 */
export function requireMfa(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const principal = principalIfAny(req);
    if (!principal) {
      res.status(401).json({ error: 'Missing authentication' });
      return;
    }
    if (!principal.amr?.includes('mfa')) {
      res.status(403).json({ error: 'Second factor required' });
      return;
    }
    next();
  };
}
