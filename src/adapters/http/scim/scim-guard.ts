import type { IncomingMessage } from 'node:http';
import type { AuthenticateScim } from '../../../application/scim/authenticate-scim';
import { InvalidScimToken } from '../../../domain/errors';
import type { NodeHandler } from '../fast-path/node-handler';
import { contextOf } from '../request-context';

const BEARER = /^Bearer +(\S+)$/i;

function bearerOf(req: IncomingMessage): string | undefined {
  return BEARER.exec(req.headers.authorization ?? '')?.[1];
}

/**
 * Admits a tenant's identity provider by its SCIM token (the scim group's guard). A refused token
 * also spends the global per-address limit before its 401, so that someone trying tokens is
 * throttled like any client, while an admitted provider is held to its own per-token limit only.
 */
export function scimGuard(useCase: AuthenticateScim, globalLimiter: NodeHandler): NodeHandler {
  return (req, res, next) => {
    useCase.execute(bearerOf(req)).then((caller) => {
      contextOf(req).scimCaller = caller;
      next();
    }, (error: unknown) => {
      if (error instanceof InvalidScimToken) globalLimiter(req, res, (limited?: unknown) => next(limited ?? error));
      else next(error);
    });
  };
}
