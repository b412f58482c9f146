import type { UseCases } from '../../../application/use-cases';
import { ChangeEmailBody, EmailLinkTokenBody } from '../body/dto/email-address-bodies';
import { AUTH_BASE } from './identity-routes';
import { json, route, type Route } from './route';

/**
 * The member's own address: proving it (a link sent at signup, or again on request) and moving to
 * another (asked for while signed in, confirmed by a link sent to the new address). The routes that
 * take a link's token are public, since the token is the proof, and share the recovery rate limit.
 */
export function emailRoutes(useCases: UseCases): Route[] {
  return [
    route({
      method: 'post', path: `${AUTH_BASE}/email/verify`, group: 'public', limit: 'recovery', body: EmailLinkTokenBody,
      handle: async ({ body, origin }) => {
        await useCases.verifyEmail.execute(body.token, origin);
        return json(200, { verified: true });
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/email/verify/resend`, group: 'protected',
      handle: async ({ principal, origin }) => {
        await useCases.resendVerification.execute(principal, origin);
        return json(202, {});
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/email/change`, group: 'protected', recentAuth: true, body: ChangeEmailBody,
      handle: async ({ principal, body, origin }) => {
        await useCases.requestEmailChange.execute(principal, { newEmail: body.new_email, currentPassword: body.current_password }, origin);
        return json(202, {});
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/email/change/confirm`, group: 'public', limit: 'recovery', body: EmailLinkTokenBody,
      handle: async ({ body, origin }) => {
        const result = await useCases.confirmEmailChange.execute(body.token, origin);
        return json(200, { token: result.token, expires_in: result.expiresIn });
      },
    }),
  ];
}
