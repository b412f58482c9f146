import type { UseCases } from '../../../application/use-cases';
import { InviteBody } from '../dto/invite-body';
import { jsonBody } from '../json-body';
import { principalOf } from '../request-principal';
import { requireRole } from '../require-role';
import type { RouteDefinition } from '../route-group';
import { validateBody } from '../validate-body';

/** Everything here runs behind the protected group's authenticate guard (see app.ts). */
export function protectedRoutes(useCases: UseCases): RouteDefinition[] {
  const adminOnly = requireRole('admin');
  return [
    {
      method: 'get',
      path: '/me',
      handlers: [(_req, res) => {
        const { tenantId, userId, role } = principalOf(res);
        res.status(200).json({ tenant_id: tenantId, user_id: userId, role });
      }],
    },
    {
      method: 'post',
      path: '/api-keys',
      handlers: [adminOnly, async (_req, res) => {
        const created = await useCases.createApiKey.execute(principalOf(res));
        res.status(201).json({ api_key: created.apiKey, prefix: created.prefix });
      }],
    },
    {
      method: 'post',
      path: '/invite',
      handlers: [adminOnly, jsonBody(), validateBody(InviteBody), async (req, res) => {
        const body = req.body as InviteBody;
        const created = await useCases.inviteUser.execute(principalOf(res), { email: body.email, role: body.role });
        res.status(201).json({ invite_token: created.inviteToken, expires_at: created.expiresAt.toISOString() });
      }],
    },
    {
      method: 'get',
      path: '/invites',
      handlers: [adminOnly, async (_req, res) => {
        const invites = await useCases.listInvites.execute(principalOf(res));
        res.status(200).json({
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
        await useCases.revokeInvite.execute(principalOf(res), String(req.params['id']));
        res.status(200).json({ deleted: true });
      }],
    },
  ];
}
