import type { ApiKeySummary } from '../../../application/api-keys/list-api-keys';
import type { MemberSummary } from '../../../application/members/list-members';
import type { UseCases } from '../../../application/use-cases';
import { ChangePasswordBody } from '../body/dto/change-password-body';
import { ChangeRoleBody } from '../body/dto/change-role-body';
import { CreateApiKeyBody } from '../body/dto/create-api-key-body';
import { InviteBody } from '../body/dto/invite-body';
import { jsonBody } from '../body/json-body';
import { originOf } from '../middleware/request-origin';
import { principalOf } from '../authentication/request-principal';
import { requireRole } from '../authentication/require-role';
import { sendJson } from '../fast-path/send-json';
import type { RouteDefinition } from './route-group';
import { validateBody } from '../body/validate-body';
import { queryOf, validateQuery } from '../body/validate-query';
import { AuditEventsQuery, knownAuditAction } from '../body/dto/audit-events-query';
import { DEFAULT_AUDIT_PAGE } from '../../../application/audit/list-audit-events';
import type { AuditEvent } from '../../../domain/audit-event';

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

function memberJson(member: MemberSummary) {
  return { user_id: member.id, email: member.email, role: member.role, created_at: member.createdAt.toISOString() };
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

/** Everything here runs behind the protected group's authenticate guard (see app.ts). */
export function protectedRoutes(useCases: UseCases): RouteDefinition[] {
  const adminOnly = requireRole('admin');
  return [
    {
      method: 'get',
      path: '/me',
      direct: true,
      handlers: [(_req, res) => {
        const { tenantId, userId, role } = principalOf(res);
        sendJson(res, 200, { tenant_id: tenantId, user_id: userId, role });
      }],
    },
    {
      method: 'post',
      path: '/api-keys',
      // No body (part 4) reaches validation as {}, so both fields are simply absent.
      handlers: [adminOnly, jsonBody(), validateBody(CreateApiKeyBody), async (req, res) => {
        const body = req.body as CreateApiKeyBody;
        const created = await useCases.createApiKey.execute(principalOf(res), { name: body.name, expiresInDays: body.expires_in_days }, originOf(req));
        res.status(201).json({
          api_key: created.apiKey, prefix: created.prefix, id: created.id, name: created.name, expires_at: iso(created.expiresAt),
        });
      }],
    },
    {
      method: 'get',
      path: '/api-keys',
      handlers: [adminOnly, async (_req, res) => {
        const keys = await useCases.listApiKeys.execute(principalOf(res));
        res.status(200).json({ api_keys: keys.map(apiKeyJson) });
      }],
    },
    {
      method: 'delete',
      path: '/api-keys/:id',
      handlers: [adminOnly, async (req, res) => {
        await useCases.revokeApiKey.execute(principalOf(res), String(req.params['id']), originOf(req));
        res.status(200).json({ revoked: true });
      }],
    },
    {
      method: 'post',
      path: '/invite',
      handlers: [adminOnly, jsonBody(), validateBody(InviteBody), async (req, res) => {
        const body = req.body as InviteBody;
        const created = await useCases.inviteUser.execute(principalOf(res), { email: body.email, role: body.role }, originOf(req));
        res.status(201).json({ invite_token: created.inviteToken, expires_at: created.expiresAt.toISOString() });
      }],
    },
    {
      method: 'get',
      path: '/invites',
      direct: true,
      handlers: [adminOnly, async (_req, res) => {
        const invites = await useCases.listInvites.execute(principalOf(res));
        sendJson(res, 200, {
          invites: invites.map((invite) => ({
            id: invite.id,
            email: invite.email,
            role: invite.role,
            expires_at: invite.expiresAt.toISOString(),
            created_at: invite.createdAt.toISOString(),
          })),
        });
      }],
    },
    {
      method: 'delete',
      path: '/invites/:id',
      handlers: [adminOnly, async (req, res) => {
        await useCases.revokeInvite.execute(principalOf(res), String(req.params['id']), originOf(req));
        res.status(200).json({ deleted: true });
      }],
    },
    {
      method: 'get',
      path: '/members',
      handlers: [adminOnly, async (_req, res) => {
        const members = await useCases.listMembers.execute(principalOf(res));
        res.status(200).json({ members: members.map(memberJson) });
      }],
    },
    {
      method: 'patch',
      path: '/members/:id',
      handlers: [adminOnly, jsonBody(), validateBody(ChangeRoleBody), async (req, res) => {
        const body = req.body as ChangeRoleBody;
        const member = await useCases.changeMemberRole.execute(principalOf(res), String(req.params['id']), body.role, originOf(req));
        res.status(200).json(memberJson(member));
      }],
    },
    {
      method: 'delete',
      path: '/members/:id',
      handlers: [adminOnly, async (req, res) => {
        await useCases.removeMember.execute(principalOf(res), String(req.params['id']), originOf(req));
        res.status(200).json({ removed: true });
      }],
    },
    {
      method: 'post',
      path: '/password',
      handlers: [jsonBody(), validateBody(ChangePasswordBody), async (req, res) => {
        const body = req.body as ChangePasswordBody;
        const result = await useCases.changePassword.execute(principalOf(res), {
          currentPassword: body.current_password, newPassword: body.new_password,
        }, originOf(req));
        res.status(200).json({ token: result.token, expires_in: result.expiresIn });
      }],
    },
    {
      method: 'get',
      path: '/audit-events',
      handlers: [adminOnly, validateQuery(AuditEventsQuery), knownAuditAction(useCases.listAuditEvents.actions), async (_req, res) => {
        const query = queryOf<AuditEventsQuery>(res);
        const page = await useCases.listAuditEvents.execute(principalOf(res), {
          limit: query.limit ?? DEFAULT_AUDIT_PAGE,
          cursor: query.cursor,
          action: query.action,
          actorUserId: query.actor,
        });
        res.status(200).json({ events: page.events.map(auditEventJson), next_cursor: page.nextCursor });
      }],
    },
  ];
}
