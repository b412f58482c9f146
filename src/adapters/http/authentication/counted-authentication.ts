import { StorageUnavailable } from '../../../application/ports/storage-unavailable';
import { DomainError } from '../../../domain/errors';
import type { AuthenticationMethod, HttpMetrics } from '../middleware/http-metrics';
import type { NodeHandler, NodeRequest } from '../fast-path/node-handler';
import { contextOf } from '../request-context';

/** The credential authentication will look at (docs/contract.md, "Authentication of protected routes"): a present x-api-key wins, then a Bearer authorization. */
function attemptedMethod(req: NodeRequest): AuthenticationMethod {
  if (req.headers['x-api-key'] !== undefined) return 'api_key';
  return req.headers.authorization?.startsWith('Bearer ') ? 'jwt' : 'none';
}

/** A refusal's reason as a label: the domain error's code (invalid_token, ...) or what went wrong instead. */
function reasonOf(error: unknown): string {
  if (error instanceof DomainError) return error.code.toLowerCase();
  return error instanceof StorageUnavailable ? 'unavailable' : 'error';
}

/**
 * The authenticate guard, counted: each check adds one to portcullis_authentications_total with
 * its credential, outcome and reason. The guard decides; this only watches it, and rethrows its
 * refusal untouched for the error mapper.
 */
export function countedAuthentication(guard: NodeHandler, metrics: HttpMetrics): NodeHandler {
  return async (req, res, next) => {
    const method = attemptedMethod(req);
    try {
      await guard(req, res, next);
    } catch (error) {
      metrics.authentications.inc({ method, outcome: 'failure', reason: reasonOf(error) });
      throw error;
    }
    const { principal } = contextOf(req);
    if (principal) metrics.authentications.inc({ method: principal.method, outcome: 'success', reason: 'ok' });
  };
}
