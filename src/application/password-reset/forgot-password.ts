import { normalizeEmail } from '../../domain/email';
import { MailNotConfigured } from '../../domain/errors';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { EmailTokens } from '../mail/email-tokens';
import type { Postbox } from '../mail/postbox';
import type { Repositories } from '../ports/repositories';
import type { UnitOfWork } from '../ports/unit-of-work';
import { mustUseSso } from '../sso/sso-required';

export interface ForgotPasswordDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  readonly postbox: Postbox;
  readonly emailTokens: EmailTokens;
  readonly trail: AuditTrail;
  readonly resetTtlSeconds: number;
  /** Told of a failure of the work done after answering (it has no request to fail). */
  readonly onError: (error: unknown) => void;
  /**
   * Runs `work` a while later (bootstrap: after a random delay of up to a second). Unset: on the
   * next turn of the event loop.
   */
  readonly later?: ((work: () => void) => { cancel(): void }) | undefined;
}

/** Requests waiting for their lookup at once; beyond this, new ones are dropped (the route's rate limit keeps it far off). */
const MAX_PENDING = 1_000;

interface Pending {
  readonly email: string;
  readonly origin: RequestOrigin;
}

/**
 * POST /password/forgot. The answer is the same, and comes at the same moment, whether or not the
 * address is registered (ASVS V6.4.3, no enumeration): it is given before the address is even
 * looked up. The lookups, tokens and messages are made later, a batch at a time, after a random
 * delay: the work a registered address causes must not slow the very next request either, or a
 * caller could time a request sent right after their probe. With mail off the route answers 503
 * for every address alike.
 */
export class ForgotPassword {
  private waiting: Pending[] = [];
  /** Taken and not yet handled. */
  private pending = 0;
  private scheduled: { cancel(): void } | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ForgotPasswordDeps) {}

  /** Resolves before any storage is read. */
  async execute(email: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    if (!this.deps.postbox.enabled) throw new MailNotConfigured();
    if (this.pending >= MAX_PENDING) return;
    this.pending += 1;
    this.waiting.push({ email: normalizeEmail(email), origin });
    this.scheduled ??= (this.deps.later ?? nextTurn)(() => this.drain());
  }

  /** Handles every request taken so far, now, and resolves when done (tests, and a graceful shutdown). */
  settled(): Promise<void> {
    this.drain();
    return this.queue;
  }

  private drain(): void {
    this.scheduled?.cancel();
    this.scheduled = undefined;
    const batch = this.waiting;
    this.waiting = [];
    for (const { email, origin } of batch) {
      this.queue = this.queue
        .then(() => this.sendLink(email, origin))
        .catch((error: unknown) => this.deps.onError(error))
        .finally(() => {
          this.pending -= 1;
        });
    }
  }

  private async sendLink(email: string, origin: RequestOrigin): Promise<void> {
    const { repos, unitOfWork, postbox, emailTokens, trail, resetTtlSeconds } = this.deps;
    const user = await repos.users.findByEmail(email);
    if (!user) return;
    await unitOfWork.run(async (tx) => {
      const tenant = await tx.tenants.findById(user.tenantId);
      // An address that signs in through its tenant's provider gets no link, as an unknown one gets none.
      if (!tenant || await mustUseSso(tx, user)) return;
      // A newer request voids the older links: only the last message's works.
      const token = await emailTokens.issue(tx, {
        tenantId: user.tenantId, userId: user.id, email: user.email, purpose: 'password_reset', ttlSeconds: resetTtlSeconds,
      });
      await postbox.post(tx, {
        tenantId: user.tenantId, userId: user.id,
        mail: { kind: 'password-reset', input: { to: user.email, tenantName: tenant.name, token, validMinutes: Math.ceil(resetTtlSeconds / 60) } },
      }, origin);
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: user.tenantId, actor: { userId: null, method: 'none' }, action: 'password.reset_requested', targetId: user.id,
      }));
    });
  }
}

function nextTurn(work: () => void): { cancel(): void } {
  let cancelled = false;
  void Promise.resolve().then(() => {
    if (!cancelled) work();
  });
  return { cancel: () => { cancelled = true; } };
}
