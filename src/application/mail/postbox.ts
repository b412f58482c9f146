import type { MailInput } from '../../domain/outgoing-mail';
import type { MailTemplate } from './render-mail';
import { AuditTrail, type RequestOrigin } from '../audit/audit-trail';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/ids';
import type { Repositories } from '../ports/repositories';

/** A message a use-case asks for: the tenant it concerns, its template and input (the input's `to` is whom to). */
export interface MailRequest {
  readonly tenantId: string;
  readonly mail: MailTemplate;
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
        targetId: request.userId ?? null, details: { kind: request.mail.kind, reason: 'mail_not_configured' },
      }));
      return;
    }
    const { kind, input } = request.mail;
    await tx.outbox.enqueue({
      // Template inputs are plain JSON data by their own rule (render-mail.ts).
      id: ids.newOrderedId(), tenantId: request.tenantId, kind, recipient: input.to, input: input as unknown as MailInput, createdAt: clock.now(),
    });
  }
}
