import { AUDIT_CLIENT_ADDRESS_MAX, AUDIT_USER_AGENT_MAX, boundedText } from '../../domain/audit-event';
import type { SessionEndReason } from '../../domain/session';
import type { AuditActor, AuditTrail, RequestOrigin } from '../audit/audit-trail';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/ids';
import type { Repositories } from '../ports/repositories';
import type { UnitOfWork } from '../ports/unit-of-work';
import { type Amr, PASSWORD_AMR } from '../../domain/second-factor';

/** How a session began: the `how` of its `session.started` event. */
export type SessionStart = 'login' | 'passkey' | 'signup' | 'invitation' | 'password_reset' | 'email_change' | 'password_change' | 'sso';

export interface SessionBookDeps {
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly trail: AuditTrail;
}

type SessionWork = Pick<Repositories, 'sessions' | 'auditEvents'>;

/** What the use-cases that only end sessions need: a unit of work to end them in, and the book. */
export interface EndingSessionsDeps {
  readonly unitOfWork: UnitOfWork;
  readonly book: SessionBook;
}

export interface Member {
  readonly tenantId: string;
  readonly userId: string;
}

/**
 * Starting and ending sessions, inside the caller's unit of work, each with its audit event: the one
 * way every path in (login, signup, an invitation, a reset, an address change) makes a session, and
 * every path that ends them (logout, the member, an admin, a password change, a reset, a removal)
 * records how (ASVS V7.4.1, V7.4.3, V7.4.5).
 */
export class SessionBook {
  constructor(private readonly deps: SessionBookDeps) {}

  /** A new session of the member, authenticated now as `amr` says; returns its id, for the token's `sid`. */
  async start(tx: SessionWork, member: Member, how: SessionStart, origin: RequestOrigin, amr: readonly Amr[] = PASSWORD_AMR): Promise<string> {
    const { ids, clock, trail } = this.deps;
    const now = clock.now();
    const id = ids.newId();
    await tx.sessions.create({
      id, tenantId: member.tenantId, userId: member.userId, createdAt: now, lastSeenAt: now, authenticatedAt: now,
      userAgent: boundedText(origin.userAgent, AUDIT_USER_AGENT_MAX), ip: boundedText(origin.clientAddress, AUDIT_CLIENT_ADDRESS_MAX),
      endedAt: null, endedBy: null, endReason: null, amr,
    });
    await tx.auditEvents.append(trail.event(origin, {
      tenantId: member.tenantId, actor: { userId: member.userId, method: 'none' }, action: 'session.started', targetId: id, details: { how, amr: amr.join(' ') },
    }));
    return id;
  }

  /** Ends one live session of the member; false, recording nothing, when they have none such. */
  async end(tx: SessionWork, member: Member, sessionId: string, actor: AuditActor, reason: SessionEndReason, origin: RequestOrigin): Promise<boolean> {
    const now = this.deps.clock.now();
    if (!(await tx.sessions.end(member.tenantId, member.userId, sessionId, { at: now, by: actor.userId, reason }))) return false;
    await tx.auditEvents.append(this.deps.trail.event(origin, {
      tenantId: member.tenantId, actor, action: 'session.ended', targetId: sessionId, details: { reason, user_id: member.userId, count: 1 },
    }));
    return true;
  }

  /** Ends every live session of the member but `except`; one event for them all when any ended. Returns how many. */
  async endAll(
    tx: SessionWork, member: Member, actor: AuditActor, reason: SessionEndReason, origin: RequestOrigin, except?: string,
  ): Promise<number> {
    const now = this.deps.clock.now();
    const count = await tx.sessions.endAllOf(member.tenantId, member.userId, { at: now, by: actor.userId, reason }, except);
    if (count > 0) {
      await tx.auditEvents.append(this.deps.trail.event(origin, {
        tenantId: member.tenantId, actor, action: 'session.ended', targetId: member.userId, details: { reason, user_id: member.userId, count },
      }));
    }
    return count;
  }
}
