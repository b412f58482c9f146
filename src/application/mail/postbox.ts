import type { MailInput } from '../../domain/outgoing-mail';
import { AuditTrail, type RequestOrigin } from '../audit/audit-trail';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/ids';
import type { Repositories } from '../ports/repositories';

/** A message a use-case asks for: its template, whom to, and the template's input. */
export interface MailRequest {
  readonly tenantId: string;
  readonly kind: string;
  readonly recipient: string;
  readonly input: MailInput;
  /** The member the message is for or about, when there is one: the audit trail names them. */
  readonly userId?: string | undefined;
}

export interface PostboxDeps {
  /** False when the service has no way to send mail (production without SMTP). */
  readonly enabled: boolean;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly trail: AuditTrail;
}

/**
 * Where use-cases put messages: into the outbox, inside their own unit of work, so a message exists
 * exactly when the change that causes it committed (the delivery worker sends it after). With mail
 * off, a message that is a side note of a change (an invitation's, a verification's) is skipped,
 * and the trail records that it was; routes whose whole point is a message ask `enabled` first.
 */
export class Postbox {
  constructor(private readonly deps: PostboxDeps) {}

  get enabled(): boolean {
    return this.deps.enabled;
  }

  async post(tx: Repositories, request: MailRequest, origin: RequestOrigin): Promise<void> {
    const { ids, clock, trail } = this.deps;
    if (!this.deps.enabled) {
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: request.tenantId, actor: { userId: null, method: 'none' }, action: 'email.skipped',
        targetId: request.userId ?? null, details: { kind: request.kind, reason: 'mail_not_configured' },
      }));
      return;
    }
    await tx.outbox.enqueue({
      id: ids.newOrderedId(), tenantId: request.tenantId, kind: request.kind, recipient: request.recipient,
      input: request.input, createdAt: clock.now(),
    });
  }
}
