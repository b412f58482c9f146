import type { ClaimedMail, MailOutcome, OutgoingMail } from '../../domain/outgoing-mail';
import { AuditTrail, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { Clock } from '../ports/clock';
import type { MailSendLimits } from '../ports/mail-send-limits';
import { MailDeliveryFailed, type Mailer, type MailMessage } from '../ports/mailer';
import type { Repositories } from '../ports/repositories';
import type { UnitOfWork } from '../ports/unit-of-work';

/** Turns a stored message into the e-mail to send; throws when the message cannot be made (an unknown template). */
export type RenderMail = (mail: OutgoingMail) => MailMessage;


export interface DeliveryPolicy {
  /** Attempts in all, the first included, before a message that keeps failing for now fails for good. */
  readonly maxAttempts: number;
  /** The wait after the first failed attempt; each later one doubles it, up to `retryMaxMs`. */
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  /** How long a claim keeps other workers off a message: far longer than one SMTP exchange may take. */
  readonly leaseMs: number;
  /** Messages claimed at once. */
  readonly batch: number;
  /** Messages of a batch in flight at once. */
  readonly concurrency: number;
  /** How long a sent or failed message stays in the outbox (for whoever looks into a delivery). */
  readonly keepFinishedMs: number;
}

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  maxAttempts: 8, retryBaseMs: 30_000, retryMaxMs: 3_600_000, leaseMs: 300_000, batch: 20, concurrency: 4, keepFinishedMs: 30 * 86_400_000,
};

export interface DeliveryDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  readonly mailer: Mailer;
  readonly render: RenderMail;
  readonly limits?: MailSendLimits | undefined;
  readonly clock: Clock;
  readonly trail: AuditTrail;
  readonly policy?: DeliveryPolicy | undefined;
}

/** What one pass did. */
export interface DeliveryPass {
  readonly claimed: number;
  readonly sent: number;
  readonly retried: number;
  readonly failed: number;
}

/**
 * Sends what the outbox holds: claims due messages, renders and sends each, and records how each
 * attempt ended. A temporary failure (the server unreachable, an SMTP 4xx, the send-limit store
 * down) is retried after a doubling wait until `maxAttempts`; a permanent one (SMTP 5xx, a message
 * that cannot be rendered) fails at once. A message held back by a send limit fails for good too:
 * sending it later would flood the same inbox later. The end of an attempt and its audit event
 * commit together, and only for the claim that made the attempt, so each message is recorded sent
 * or failed once.
 */
export class MailDelivery {
  private readonly policy: DeliveryPolicy;

  constructor(private readonly deps: DeliveryDeps) {
    this.policy = deps.policy ?? DEFAULT_DELIVERY_POLICY;
  }

  /** Messages one pass claims at most. */
  get batchSize(): number {
    return this.policy.batch;
  }

  async deliverDue(): Promise<DeliveryPass> {
    const now = this.deps.clock.now();
    const claimed = await this.deps.repos.outbox.claimDue(now, new Date(now.getTime() + this.policy.leaseMs), this.policy.batch);
    const pass = { claimed: claimed.length, sent: 0, retried: 0, failed: 0 };
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < claimed.length) {
        const mail = claimed[next]!;
        next += 1;
        const outcome = await this.attempt(mail);
        if (!(await this.finish(mail, outcome))) continue;
        if (outcome.status === 'sent') pass.sent += 1;
        else if (outcome.status === 'retry') pass.retried += 1;
        else pass.failed += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.policy.concurrency, claimed.length) }, lane));
    return pass;
  }

  /** Drops finished messages older than the policy keeps them; returns how many. */
  prune(): Promise<number> {
    return this.deps.repos.outbox.pruneFinished(new Date(this.deps.clock.now().getTime() - this.policy.keepFinishedMs));
  }

  private async attempt(mail: ClaimedMail): Promise<MailOutcome> {
    const { mailer, render, limits, clock } = this.deps;
    let message: MailMessage;
    try {
      message = render(mail);
    } catch (error) {
      return { status: 'failed', at: clock.now(), error: `not rendered: ${describe(error)}` };
    }
    try {
      if (limits && !(await limits.take(mail.recipient, mail.tenantId))) {
        return { status: 'failed', at: clock.now(), error: 'send limit reached' };
      }
      await mailer.send(message);
      return { status: 'sent', at: clock.now() };
    } catch (error) {
      const temporary = !(error instanceof MailDeliveryFailed) || error.temporary;
      const at = clock.now();
      if (!temporary || mail.attempt >= this.policy.maxAttempts) return { status: 'failed', at, error: describe(error) };
      const wait = Math.min(this.policy.retryMaxMs, this.policy.retryBaseMs * 2 ** (mail.attempt - 1));
      return { status: 'retry', at, nextAttemptAt: new Date(at.getTime() + wait), error: describe(error) };
    }
  }

  private finish(mail: ClaimedMail, outcome: MailOutcome): Promise<boolean> {
    const { unitOfWork, trail } = this.deps;
    return unitOfWork.run(async (tx) => {
      if (!(await tx.outbox.finish(mail.id, mail.attempt, outcome))) return false;
      if (outcome.status !== 'retry') {
        await tx.auditEvents.append(trail.event(UNKNOWN_ORIGIN, {
          tenantId: mail.tenantId, actor: { userId: null, method: 'none' },
          action: outcome.status === 'sent' ? 'email.sent' : 'email.failed', targetId: mail.id,
          details: outcome.status === 'sent'
            ? { kind: mail.kind, attempts: mail.attempt }
            : { kind: mail.kind, attempts: mail.attempt, reason: outcome.error.slice(0, 200) },
        }));
      }
      return true;
    });
  }
}

/** An error's message only: a transport's own error may carry the whole exchange. */
function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
