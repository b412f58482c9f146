import type { RequestOrigin } from '../../../application/audit/audit-trail';
import type { NodeRequest } from '../fast-path/node-handler';

/**
 * What the audit trail records of where a request came from: req.ip follows `trust proxy`, so it is
 * the address the rate limiters count too; the request id is the one the request logger assigned
 * (and returned to the client), so a log line and an audit event can be matched.
 */
export function originOf(req: NodeRequest): RequestOrigin {
  const id = (req as NodeRequest & { id?: unknown }).id;
  return {
    clientAddress: req.ip,
    userAgent: req.headers['user-agent'],
    requestId: typeof id === 'string' || typeof id === 'number' ? String(id) : undefined,
  };
}
