import { InvalidApiKey, InvalidToken } from '../../domain/errors';
import type { Principal } from '../../domain/principal';

/**
 * The caller was removed (or their tenant is gone) while the request was on its way: the credential
 * it came with no longer stands, and is refused as that credential is refused at authentication.
 */
export function callerGone(caller: Principal): Error {
  return caller.method === 'api_key' ? new InvalidApiKey() : new InvalidToken();
}
