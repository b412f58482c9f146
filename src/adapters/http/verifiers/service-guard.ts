import type { AuthenticateService } from '../../../application/authentication/authenticate-service';
import type { IncomingMessage } from 'node:http';
import type { NodeHandler } from '../fast-path/node-handler';
import { contextOf } from '../request-context';

/** The header a verifying service sends its service key in. Never `x-api-key` or `authorization`: those carry the caller's credential. */
export const SERVICE_KEY_HEADER = 'x-service-key';

export function serviceKeyOf(req: IncomingMessage): string | undefined {
  const value = req.headers[SERVICE_KEY_HEADER];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Admits a verifying service by its key (401 otherwise). A key verified moments ago goes straight
 * through; any other request first passes the global per-address limiter, so that someone trying
 * keys is throttled like any client while a busy verifier is not held to a browser's quota.
 */
export function serviceGuard(useCase: AuthenticateService, globalLimiter: NodeHandler): NodeHandler {
  return (req, res, next) => {
    const rawKey = serviceKeyOf(req);
    const verify = (): void => {
      useCase.execute(rawKey).then((caller) => {
        contextOf(req).serviceCaller = caller;
        next();
      }, next);
    };
    if (useCase.isTrusted(rawKey)) verify();
    else globalLimiter(req, res, (error?: unknown) => (error ? next(error) : verify()));
  };
}
