import type { Principal } from '../../domain/principal';
import { isIdle } from '../../domain/session';
import type { Clock } from '../ports/clock';
import type { SessionRepository } from '../ports/repositories';
import type { SessionActivity } from '../ports/session-activity';

export interface SessionSummary {
  readonly id: string;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  readonly userAgent: string | null;
  readonly ip: string | null;
  /** The session the caller's own token names. */
  readonly current: boolean;
}

export interface ListSessionsDeps {
  readonly sessions: Pick<SessionRepository, 'listLive'>;
  readonly activity: SessionActivity;
  readonly clock: Clock;
  readonly idleTimeoutSeconds?: number | undefined;
}

/**
 * The caller's own live sessions, newest first (ASVS V7.5.2), whatever credential they call with;
 * only a token's own session is `current`. A session idle past the timeout counts as ended and is
 * not shown. Last seen is storage's, moved on by what this instance saw itself.
 */
export class ListSessions {
  constructor(private readonly deps: ListSessionsDeps) {}

  async execute(caller: Principal): Promise<SessionSummary[]> {
    const { sessions, activity, clock, idleTimeoutSeconds } = this.deps;
    const now = clock.now();
    const live = await sessions.listLive(caller.tenantId, caller.userId);
    return live.flatMap((session) => {
      const seenHere = activity.lastUse(session.id);
      const lastSeenAt = seenHere && seenHere > session.lastSeenAt ? seenHere : session.lastSeenAt;
      if (isIdle(lastSeenAt, now, idleTimeoutSeconds)) return [];
      return [{
        id: session.id, createdAt: session.createdAt, lastSeenAt, userAgent: session.userAgent, ip: session.ip,
        current: caller.method === 'jwt' && caller.sessionId === session.id,
      }];
    });
  }
}
