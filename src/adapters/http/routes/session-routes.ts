import type { SessionSummary } from '../../../application/sessions/list-sessions';
import type { UseCases } from '../../../application/use-cases';
import { ReauthenticateBody } from '../body/dto/reauthenticate-body';
import { AUTH_BASE } from './identity-routes';
import { json, route, type Route } from './route';

function sessionJson(session: SessionSummary) {
  return {
    id: session.id,
    created_at: session.createdAt.toISOString(),
    last_seen_at: session.lastSeenAt.toISOString(),
    user_agent: session.userAgent,
    ip: session.ip,
    current: session.current,
  };
}

/**
 * Sessions a member can see and end (their own; an admin's of a member), logout, and renewing a
 * session's recent authentication. Ending a member's sessions changes how they sign in, so it
 * wants recent authentication.
 */
export function sessionRoutes(useCases: UseCases): Route[] {
  return [
    route({
      method: 'get', path: `${AUTH_BASE}/sessions`, group: 'protected',
      handle: async ({ principal }) => json(200, { sessions: (await useCases.listSessions.execute(principal)).map(sessionJson) }),
    }),
    route({
      method: 'delete', path: `${AUTH_BASE}/sessions`, group: 'protected',
      handle: async ({ principal, origin }) => json(200, { ended: await useCases.endOtherSessions.execute(principal, origin) }),
    }),
    route({
      method: 'delete', path: `${AUTH_BASE}/sessions/:id`, group: 'protected',
      handle: async ({ principal, params, origin }) => {
        await useCases.endSession.execute(principal, params['id']!, origin);
        return json(200, { ended: true });
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/logout`, group: 'protected', enrollment: true,
      handle: async ({ principal, origin }) => {
        await useCases.logout.execute(principal, origin);
        return { status: 204, bytes: '', contentType: 'text/plain' };
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/reauthenticate`, group: 'protected', enrollment: true, body: ReauthenticateBody,
      handle: async ({ principal, body, origin }) => {
        const recentUntil = await useCases.reauthenticate.execute(principal, body.password, origin);
        return json(200, { recent_until: recentUntil.toISOString() });
      },
    }),
    route({
      method: 'delete', path: `${AUTH_BASE}/members/:id/sessions`, group: 'protected', role: 'admin', recentAuth: true,
      handle: async ({ principal, params, origin }) => json(200, { ended: await useCases.endMemberSessions.execute(principal, params['id']!, origin) }),
    }),
  ];
}
