import type { Passkey } from '../../../domain/passkey';
import type { UseCases } from '../../../application/use-cases';
import { PasskeySignInBody, RegisterPasskeyBody, RenamePasskeyBody } from '../body/dto/passkey-bodies';
import { deviceProofHeaders, deviceProofOf } from './device-proof-transport';
import { AUTH_BASE } from './identity-routes';
import { json, route, type Route } from './route';

function passkeyJson(passkey: Passkey) {
  return {
    id: passkey.id, name: passkey.name, created_at: passkey.createdAt.toISOString(), last_used_at: passkey.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * Passkeys: the caller's own (registration wants recent authentication, as does removal: both
 * change how the member signs in), and the passwordless sign-in ceremony, public and limited per
 * client address as login is.
 */
export function passkeyRoutes(useCases: UseCases): Route[] {
  return [
    route({
      method: 'post', path: `${AUTH_BASE}/mfa/passkeys/options`, group: 'protected', recentAuth: true, enrollment: true,
      handle: async ({ principal }) => json(200, await useCases.registerPasskey.options(principal)),
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/mfa/passkeys`, group: 'protected', recentAuth: true, enrollment: true, body: RegisterPasskeyBody,
      handle: async ({ principal, body, origin }) => {
        const added = await useCases.registerPasskey.execute(principal, body, origin);
        return json(201, { id: added.id, name: added.name, created_at: added.createdAt.toISOString() });
      },
    }),
    route({
      method: 'get', path: `${AUTH_BASE}/mfa/passkeys`, group: 'protected', enrollment: true,
      handle: async ({ principal }) => json(200, { passkeys: (await useCases.managePasskeys.list(principal)).map(passkeyJson) }),
    }),
    route({
      method: 'patch', path: `${AUTH_BASE}/mfa/passkeys/:id`, group: 'protected', body: RenamePasskeyBody,
      handle: async ({ principal, params, body }) => {
        await useCases.managePasskeys.rename(principal, params['id']!, body.name);
        return json(200, { id: params['id']!.toLowerCase(), name: body.name });
      },
    }),
    route({
      method: 'delete', path: `${AUTH_BASE}/mfa/passkeys/:id`, group: 'protected', recentAuth: true,
      handle: async ({ principal, params, origin }) => {
        await useCases.managePasskeys.remove(principal, params['id']!, origin);
        return { status: 204, bytes: '', contentType: 'text/plain' };
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/login/passkey/options`, group: 'public', limit: 'login',
      handle: async () => json(200, await useCases.passkeySignIn.options()),
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/login/passkey`, group: 'public', limit: 'login', body: PasskeySignInBody,
      handle: async ({ body, origin, headers, secure }) => {
        const signedIn = await useCases.passkeySignIn.execute({ ...body, deviceProof: deviceProofOf(headers) }, origin);
        return json(200, { token: signedIn.token, expires_in: signedIn.expiresIn }, deviceProofHeaders(signedIn.deviceProof, secure, AUTH_BASE));
      },
    }),
  ];
}
