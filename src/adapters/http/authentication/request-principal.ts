import type { NodeResponse } from '../fast-path/node-handler';
import type { Principal } from '../../../domain/principal';

// res.locals is per request and untyped; these two functions are the only way in and out of it.
const KEY = 'principal';

export function setPrincipal(res: NodeResponse, principal: Principal): void {
  res.locals[KEY] = principal;
}

/** The authenticated caller. Throws (a 500) if a route outside the protected group asks: a wiring bug. */
export function principalOf(res: NodeResponse): Principal {
  const principal = res.locals[KEY] as Principal | undefined;
  if (!principal) throw new Error('No principal on this request: the route is not behind authenticate');
  return principal;
}

/** The authenticated caller, or undefined before authentication and on public routes (for the request log). */
export function principalIfAny(res: NodeResponse): Principal | undefined {
  return res.locals[KEY] as Principal | undefined;
}
