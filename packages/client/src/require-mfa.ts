import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { principalIfAny } from './principal';

/** The answer to a caller who did not use a second factor. */
export const MFA_REQUIRED_ERROR = 'Requires a sign-in with a second factor';

/**
 * After the portcullis middleware: admits only a caller whose sign-in used two factors (`mfa` in
 * the principal's `amr`: a password and an authenticator code, recovery code or passkey, or a
 * passkey that verified its user). Anyone else gets 403 `Requires a sign-in with a second factor`,
 * API keys included (a key is a machine credential, its amr is `["api_key"]`). Without a principal
 * (the middleware is not in front), 401 `Missing authentication`, as requireRole answers.
 */
export function requireMfa(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const principal = principalIfAny(req);
    if (!principal) {
      res.status(401).json({ error: 'Missing authentication' });
      return;
    }
    if (!principal.amr.includes('mfa')) {
      res.status(403).json({ error: MFA_REQUIRED_ERROR });
      return;
    }
    next();
  };
}
