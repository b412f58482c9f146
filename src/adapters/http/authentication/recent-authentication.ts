import type { RequireRecentAuthentication } from '../../../application/authentication/require-recent-authentication';
import type { NodeHandler } from '../fast-path/node-handler';
import { contextOf } from '../request-context';

/** The step a route declared `recentAuth` runs after its role check: the use-case decides, a refusal is a DomainError. */
export function recentAuthentication(useCase: RequireRecentAuthentication): NodeHandler {
  return async (req, _res, next) => {
    const { principal } = contextOf(req);
    if (!principal) throw new Error('recentAuth on a route outside the protected group');
    await useCase.execute(principal);
    next();
  };
}
