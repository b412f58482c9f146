import type { UseCases } from '../../../application/use-cases';
import type { TenantSecurity } from '../../../application/mfa/tenant-security';
import { ResetPasskeyOptionsBody } from '../body/dto/password-reset-bodies';
import {
  ConfirmAuthenticatorAppBody, LoginSecondFactorBody, SecondFactorPasskeyOptionsBody, TenantSecurityBody,
} from '../body/dto/second-factor-bodies';
import { deviceProofHeaders, deviceProofOf } from './device-proof-transport';
import { AUTH_BASE } from './identity-routes';
import { json, route, type Route } from './route';

function securityJson(security: TenantSecurity) {
  return {
    mfa: security.mfa,
    members_without_factor: security.membersWithoutFactor.map((m) => ({ id: m.id, email: m.email, role: m.role })),
  };
}

/**
 * Second factors: the second step of a sign-in (public, in the login limit per address), a
 * member's own authenticator app and recovery codes, and an admin's removal of a member's factors.
 * Adding, removing and replacing factors changes how someone signs in, so it wants recent
 * authentication; confirming a pending app is proven by its own code.
 */
export function secondFactorRoutes(useCases: UseCases): Route[] {
  return [
    route({
      method: 'post', path: `${AUTH_BASE}/login/mfa`, group: 'public', limit: 'login', body: LoginSecondFactorBody,
      handle: async ({ body, origin, headers, secure }) => {
        const result = await useCases.completeSignIn.execute({
          mfaToken: body.mfa_token, proofs: { totp: body.code, recovery_code: body.recovery_code, passkey: body.passkey },
          deviceProof: deviceProofOf(headers),
        }, origin);
        return json(200, { token: result.token, expires_in: result.expiresIn }, deviceProofHeaders(result.deviceProof, secure, AUTH_BASE));
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/login/mfa/passkey/options`, group: 'public', limit: 'login', body: SecondFactorPasskeyOptionsBody,
      handle: async ({ body }) => json(200, await useCases.secondFactorOptions.forSignIn(body.mfa_token)),
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/password/reset/passkey/options`, group: 'public', limit: 'recovery', body: ResetPasskeyOptionsBody,
      handle: async ({ body }) => json(200, await useCases.secondFactorOptions.forReset(body.token)),
    }),
    route({
      method: 'get', path: `${AUTH_BASE}/tenant/security`, group: 'protected', role: 'owner',
      handle: async ({ principal }) => json(200, securityJson(await useCases.tenantSecurity.get(principal))),
    }),
    route({
      method: 'patch', path: `${AUTH_BASE}/tenant/security`, group: 'protected', role: 'owner', recentAuth: true, body: TenantSecurityBody,
      handle: async ({ principal, body, origin }) => json(200, securityJson(await useCases.tenantSecurity.set(principal, body.mfa, origin))),
    }),
    route({
      method: 'get', path: `${AUTH_BASE}/mfa`, group: 'protected', enrollment: true,
      handle: async ({ principal }) => {
        const factors = await useCases.getSecondFactors.execute(principal);
        return json(200, {
          totp: factors.totp === null ? null : { enrolled_at: factors.totp.enrolledAt.toISOString() },
          recovery_codes: { remaining: factors.recoveryCodesRemaining },
        });
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/mfa/totp`, group: 'protected', recentAuth: true, enrollment: true,
      handle: async ({ principal, origin }) => {
        const enrolled = await useCases.enrollAuthenticatorApp.execute(principal, origin);
        return json(200, { secret: enrolled.secret, otpauth_uri: enrolled.otpauthUri }, { 'Cache-Control': 'no-store' });
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/mfa/totp/confirm`, group: 'protected', enrollment: true, body: ConfirmAuthenticatorAppBody,
      handle: async ({ principal, body, origin }) => {
        const confirmed = await useCases.confirmAuthenticatorApp.execute(principal, body.code, origin);
        return json(200, { recovery_codes: confirmed.recoveryCodes }, { 'Cache-Control': 'no-store' });
      },
    }),
    route({
      method: 'delete', path: `${AUTH_BASE}/mfa/totp`, group: 'protected', recentAuth: true,
      handle: async ({ principal, origin }) => {
        await useCases.removeAuthenticatorApp.execute(principal, origin);
        return json(200, { removed: true });
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/mfa/recovery-codes`, group: 'protected', recentAuth: true, enrollment: true,
      handle: async ({ principal, origin }) =>
        json(200, { recovery_codes: await useCases.regenerateRecoveryCodes.execute(principal, origin) }, { 'Cache-Control': 'no-store' }),
    }),
    route({
      method: 'delete', path: `${AUTH_BASE}/members/:id/mfa`, group: 'protected', role: 'admin', recentAuth: true,
      handle: async ({ principal, params, origin }) => {
        await useCases.removeMemberFactors.execute(principal, params['id']!, origin);
        return json(200, { removed: true });
      },
    }),
  ];
}
