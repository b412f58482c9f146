import type { Authenticate } from '../../../application/authentication/authenticate';
import type { NodeHandler } from '../fast-path/node-handler';
import { contextOf } from '../request-context';

/**
 * Node joins repeated custom headers into one string, so an array should not happen; if it does,
 * joining keeps it "present" (docs/contract.md, "Authentication of protected routes": the key alone decides) and it then fails the format check.
 */
function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Part 5's check: the use-case decides; a refusal is a DomainError for the error mapper. */
export function authenticate(useCase: Authenticate): NodeHandler {
  return async (req, _res, next) => {
    const principal = await useCase.execute({
      apiKey: headerValue(req.headers['x-api-key']),
      authorization: req.headers.authorization,
    });
    contextOf(req).principal = principal;
    next();
  };
}
