import type { IncomingHttpHeaders } from 'node:http';
import type { UseCases } from '../../../application/use-cases';
import { SsoSignInRefused } from '../../../domain/errors';
import { SsoCallbackQuery, SsoExchangeBody, SsoStartQuery } from '../body/dto/sso-bodies';
import { HttpError } from '../errors/http-error';
import { deviceProofHeaders, deviceProofOf } from './device-proof-transport';
import { AUTH_BASE } from './identity-routes';
import { bytes, json, route, type Answer, type Route } from './route';

function redirect(location: string): Answer {
  return bytes(302, '', 'text/plain', { Location: location, 'Cache-Control': 'no-store' });
}

/** The console asks for JSON so that it can show a refusal on its own page rather than follow a redirect. */
function wantsJson(headers: IncomingHttpHeaders): boolean {
  return (headers.accept ?? '').split(',').some((type) => type.split(';')[0]!.trim().toLowerCase() === 'application/json');
}

/**
 * Single sign-on through the tenant's OpenID provider: start (a redirect to the provider, or its
 * URL as JSON), the provider's callback (a redirect to the console with a one-time code, or with
 * the reason of a refusal), and the console's exchange of the code for the sign-in's answer. Start
 * and callback are limited per client address ('sso'), the exchange as login is.
 */
export function ssoSignInRoutes(useCases: UseCases): Route[] {
  return [
    route({
      method: 'get', path: `${AUTH_BASE}/sso/start`, group: 'public', limit: 'sso', query: SsoStartQuery,
      handle: async ({ query, headers }) => {
        if ((query.email === undefined) === (query.tenant === undefined)) throw new HttpError(400, 'Give either email or tenant');
        const { redirectUrl } = await useCases.startSsoSignIn.execute(
          query.email !== undefined ? { email: query.email } : { tenantSlug: query.tenant! },
        );
        return wantsJson(headers) ? json(200, { redirect_url: redirectUrl }, { 'Cache-Control': 'no-store' }) : redirect(redirectUrl);
      },
    }),
    route({
      // Providers add parameters of their own to the redirect (Google: scope, authuser, hd, prompt).
      method: 'get', path: `${AUTH_BASE}/sso/callback`, group: 'public', limit: 'sso', query: SsoCallbackQuery, unknownQuery: 'ignore',
      handle: async ({ query, origin }) => {
        const sso = useCases.finishSsoSignIn;
        try {
          const { code } = await sso.execute({ ...query }, origin);
          return redirect(sso.consoleLocation({ code }));
        } catch (error) {
          if (error instanceof SsoSignInRefused) return redirect(sso.consoleLocation({ error: error.message }));
          throw error;
        }
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/sso/exchange`, group: 'public', limit: 'login', body: SsoExchangeBody,
      handle: async ({ body, origin, headers, secure }) => {
        const result = await useCases.exchangeSsoCode.execute({ code: body.code, deviceProof: deviceProofOf(headers) }, origin);
        return json(200, { token: result.token, expires_in: result.expiresIn }, deviceProofHeaders(result.deviceProof, secure, AUTH_BASE));
      },
    }),
  ];
}
