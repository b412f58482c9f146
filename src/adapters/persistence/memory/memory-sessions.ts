import type { SessionRepository } from '../../../application/ports/repositories';
import type { Session, SessionEnding } from '../../../domain/session';

function endedWith(session: Session, { at, by, reason }: SessionEnding): Session {
  return { ...session, endedAt: at, endedBy: by, endReason: reason };
}

/** Sessions over one state's map, as the SQL table keeps them (a session is the tenant's and member's only). */
export function memorySessions(sessions: Map<string, Session>): SessionRepository {
  const live = (tenantId: string, sessionId: string): Session | null => {
    const session = sessions.get(sessionId.toLowerCase());
    return session && session.tenantId === tenantId && session.endedAt === null ? session : null;
  };
  return {
    async create(session) {
      if (sessions.has(session.id)) throw new Error('duplicate key value violates unique constraint "sessions_pkey"');
      sessions.set(session.id, session);
    },
    async findLive(tenantId, sessionId) {
      const session = live(tenantId, sessionId);
      return session ? {
        sessionId: session.id, tenantId, userId: session.userId, lastSeenAt: session.lastSeenAt, authenticatedAt: session.authenticatedAt,
      } : null;
    },
    async listLive(tenantId, userId) {
      return [...sessions.values()]
        .filter((s) => s.tenantId === tenantId && s.userId === userId && s.endedAt === null)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    },
    async end(tenantId, userId, sessionId, ending) {
      const session = live(tenantId, sessionId);
      if (!session || session.userId !== userId) return false;
      sessions.set(session.id, endedWith(session, ending));
      return true;
    },
    async endAllOf(tenantId, userId, ending, except) {
      let count = 0;
      for (const session of sessions.values()) {
        if (session.tenantId !== tenantId || session.userId !== userId || session.endedAt !== null || session.id === except?.toLowerCase()) continue;
        sessions.set(session.id, endedWith(session, ending));
        count += 1;
      }
      return count;
    },
    async renewAuthentication(tenantId, userId, sessionId, at) {
      const session = live(tenantId, sessionId);
      if (!session || session.userId !== userId) return false;
      sessions.set(session.id, { ...session, authenticatedAt: at });
      return true;
    },
    async markSeen(uses) {
      for (const { tenantId, sessionId, at } of uses) {
        const session = sessions.get(sessionId);
        if (!session || session.tenantId !== tenantId || session.lastSeenAt.getTime() >= at.getTime()) continue;
        sessions.set(sessionId, { ...session, lastSeenAt: at });
      }
    },
  };
}
