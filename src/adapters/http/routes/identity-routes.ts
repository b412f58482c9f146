import type { ApiKeySummary } from '../../../application/api-keys/list-api-keys';
import { DEFAULT_AUDIT_PAGE } from '../../../application/audit/list-audit-events';
import type { MemberSummary } from '../../../application/members/list-members';
import type { UseCases } from '../../../application/use-cases';
import type { AuditEvent } from '../../../domain/audit-event';
import { assertKnownAuditAction, AuditEventsQuery } from '../body/dto/audit-events-query';
import { ChangePasswordBody } from '../body/dto/change-password-body';
import { ChangeRoleBody } from '../body/dto/change-role-body';
import { CreateApiKeyBody } from '../body/dto/create-api-key-body';
import { InviteBody } from '../body/dto/invite-body';
import { LoginBody } from '../body/dto/login-body';
import { SignupBody } from '../body/dto/signup-body';
import { ForgotPasswordBody, ResetPasswordBody } from '../body/dto/password-reset-bodies';
import { deviceProofHeaders, deviceProofOf } from './device-proof-transport';
import { json, route, type Route } from './route';

/** Every identity path starts here (the contract's `/api/v1/auth`). */
export const AUTH_BASE = '/api/v1/auth';

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

/** A suspended member carries `suspended_at`; an active one has exactly the contract's four fields. */
function memberJson(member: MemberSummary) {
  const json = { user_id: member.id, email: member.email, role: member.role, created_at: member.createdAt.toISOString() };
  return member.suspendedAt ? { ...json, suspended_at: member.suspendedAt.toISOString() } : json;
}

function apiKeyJson(key: ApiKeySummary) {
  return {
    id: key.id,
    prefix: key.keyPrefix,
    name: key.name,
    created_by: key.userId,
    created_at: key.createdAt.toISOString(),
    last_used_at: iso(key.lastUsedAt),
    expires_at: iso(key.expiresAt),
    revoked: key.revoked,
  };
}

function auditEventJson(event: AuditEvent) {
  return {
    id: event.id,
    tenant_id: event.tenantId,
    actor_user_id: event.actorUserId,
    actor_auth: event.actorMethod,
    action: event.action,
    target_id: event.targetId,
    client_ip: event.clientAddress,
    user_agent: event.userAgent,
    request_id: event.requestId,
    occurred_at: event.occurredAt.toISOString(),
    details: event.details,
  };
}

/**
 * Identity's routes: login and signup (public, each with the contract's own limit), and the
 * protected routes of docs/contract.md and beyond it (keys, members, password, audit trail).
 */
export function identityRoutes(useCases: UseCases): Route[] {
  return [
    route({
      method: 'post', path: `${AUTH_BASE}/login`, group: 'public', limit: 'login', body: LoginBody,
      handle: async ({ body, origin, headers, secure }) => {
        const result = await useCases.login.execute({ email: body.email, password: body.password, deviceProof: deviceProofOf(headers) }, origin);
        return json(200, { token: result.token, expires_in: result.expiresIn }, deviceProofHeaders(result.deviceProof, secure, AUTH_BASE));
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/signup`, group: 'public', limit: 'signup', body: SignupBody,
      handle: async ({ body, origin, secure }) => {
        const result = await useCases.signup.execute({
          email: body.email, password: body.password, tenantName: body.tenant_name, inviteToken: body.invite_token,
        }, origin);
        return json(201, { token: result.token, tenant_id: result.tenantId, expires_in: result.expiresIn }, deviceProofHeaders(result.deviceProof, secure, AUTH_BASE));
      },
    }),
    route({
      method: 'get', path: `${AUTH_BASE}/me`, group: 'protected', enrollment: true,
      handle: ({ principal: { tenantId, userId, role } }) => json(200, { tenant_id: tenantId, user_id: userId, role }),
    }),
    route({
      // /me keeps the contract's three fields; what a person is shown of themselves is here.
      method: 'get', path: `${AUTH_BASE}/account`, group: 'protected', enrollment: true,
      handle: async ({ principal }) => {
        const account = await useCases.getAccount.execute(principal);
        return json(200, {
          user_id: account.userId, email: account.email, role: account.role, tenant_id: account.tenantId, tenant_name: account.tenantName,
          email_verified: account.emailVerified,
        });
      },
    }),
    route({
      // No body (the contract's POST /api-keys) reaches validation as {}, so both fields are simply absent.
      method: 'post', path: `${AUTH_BASE}/api-keys`, group: 'protected', role: 'admin', body: CreateApiKeyBody,
      handle: async ({ principal, body, origin }) => {
        const created = await useCases.createApiKey.execute(principal, { name: body.name, expiresInDays: body.expires_in_days }, origin);
        return json(201, { api_key: created.apiKey, prefix: created.prefix, id: created.id, name: created.name, expires_at: iso(created.expiresAt) });
      },
    }),
    route({
      method: 'get', path: `${AUTH_BASE}/api-keys`, group: 'protected', role: 'admin',
      handle: async ({ principal }) => json(200, { api_keys: (await useCases.listApiKeys.execute(principal)).map(apiKeyJson) }),
    }),
    route({
      method: 'delete', path: `${AUTH_BASE}/api-keys/:id`, group: 'protected', role: 'admin',
      handle: async ({ principal, params, origin }) => {
        await useCases.revokeApiKey.execute(principal, params['id']!, origin);
        return json(200, { revoked: true });
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/invite`, group: 'protected', role: 'admin', body: InviteBody,
      handle: async ({ principal, body, origin }) => {
        const created = await useCases.inviteUser.execute(principal, { email: body.email, role: body.role }, origin);
        return json(201, { invite_token: created.inviteToken, expires_at: created.expiresAt.toISOString() });
      },
    }),
    route({
      method: 'get', path: `${AUTH_BASE}/invites`, group: 'protected', role: 'admin',
      handle: async ({ principal }) => {
        const invites = await useCases.listInvites.execute(principal);
        return json(200, {
          invites: invites.map((invite) => ({
            id: invite.id, email: invite.email, role: invite.role, expires_at: invite.expiresAt.toISOString(), created_at: invite.createdAt.toISOString(),
          })),
        });
      },
    }),
    route({
      method: 'delete', path: `${AUTH_BASE}/invites/:id`, group: 'protected', role: 'admin',
      handle: async ({ principal, params, origin }) => {
        await useCases.revokeInvite.execute(principal, params['id']!, origin);
        return json(200, { deleted: true });
      },
    }),
    route({
      // The same invitation again, same link (resend-invite.ts); 202: what follows happens by e-mail.
      method: 'post', path: `${AUTH_BASE}/invites/:id/resend`, group: 'protected', role: 'admin',
      handle: async ({ principal, params, origin }) => {
        await useCases.resendInvite.execute(principal, params['id']!, origin);
        return json(202, {});
      },
    }),
    route({
      method: 'get', path: `${AUTH_BASE}/members`, group: 'protected', role: 'admin',
      handle: async ({ principal }) => json(200, { members: (await useCases.listMembers.execute(principal)).map(memberJson) }),
    }),
    route({
      method: 'patch', path: `${AUTH_BASE}/members/:id`, group: 'protected', role: 'admin', body: ChangeRoleBody,
      handle: async ({ principal, params, body, origin }) =>
        json(200, memberJson(await useCases.changeMemberRole.execute(principal, params['id']!, body.role, origin))),
    }),
    route({
      method: 'delete', path: `${AUTH_BASE}/members/:id`, group: 'protected', role: 'admin',
      handle: async ({ principal, params, origin }) => {
        await useCases.removeMember.execute(principal, params['id']!, origin);
        return json(200, { removed: true });
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/password`, group: 'protected', body: ChangePasswordBody,
      handle: async ({ principal, body, origin }) => {
        const result = await useCases.changePassword.execute(principal, { currentPassword: body.current_password, newPassword: body.new_password }, origin);
        return json(200, { token: result.token, expires_in: result.expiresIn });
      },
    }),
    route({
      // 202 for every well-formed address, before it is looked up (forgot-password.ts).
      method: 'post', path: `${AUTH_BASE}/password/forgot`, group: 'public', limit: 'recovery', body: ForgotPasswordBody,
      handle: async ({ body, origin }) => {
        await useCases.forgotPassword.execute(body.email, origin);
        return json(202, {});
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/password/reset`, group: 'public', limit: 'recovery', body: ResetPasswordBody,
      handle: async ({ body, origin }) => {
        const result = await useCases.resetPassword.execute({
          token: body.token, password: body.password, proofs: { totp: body.code, recovery_code: body.recovery_code, passkey: body.passkey },
        }, origin);
        return json(200, { token: result.token, expires_in: result.expiresIn });
      },
    }),
    route({
      method: 'get', path: `${AUTH_BASE}/audit-events`, group: 'protected', role: 'admin', query: AuditEventsQuery,
      handle: async ({ principal, query }) => {
        assertKnownAuditAction(useCases.listAuditEvents.actions, query.action);
        const page = await useCases.listAuditEvents.execute(principal, {
          limit: query.limit ?? DEFAULT_AUDIT_PAGE, cursor: query.cursor, action: query.action, actorUserId: query.actor,
        });
        return json(200, { events: page.events.map(auditEventJson), next_cursor: page.nextCursor });
      },
    }),
  ];
}
