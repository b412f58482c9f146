import { sql } from 'kysely';
import type { MailOutboxRepository } from '../../../../application/ports/repositories';
import type { ClaimedMail, MailInput, MailOutcome, OutgoingMail } from '../../../../domain/outgoing-mail';
import { CLAIM_MAIL, FINISH_MAIL, MAIL_SUBJECT, PRUNE_MAIL } from '../migrations/0013-email-tokens-and-outbox';
import type { TenantScope } from '../driver/tenant-scope';

interface ClaimRow {
  readonly id: string;
  readonly tenant_id: string;
  readonly kind: string;
  readonly recipient: string;
  /** jsonb: parsed by pg, and by PGlite. */
  readonly input: MailInput;
  readonly created_at: Date;
  readonly attempt: number;
}

/**
 * The outbox of migration 0013: enqueued behind the tenant wall in the caller's transaction;
 * claimed and finished through the two definer functions, with the service's proof over 'mail'.
 */
export class KyselyMailOutboxRepository implements MailOutboxRepository {
  private readonly proof: string;

  constructor(private readonly scope: TenantScope) {
    this.proof = scope.walls.proof(MAIL_SUBJECT);
  }

  async enqueue(mail: OutgoingMail): Promise<void> {
    await this.scope.forTenant(mail.tenantId, (db) => db.insertInto('mail_outbox').values({
      id: mail.id, tenant_id: mail.tenantId, kind: mail.kind, recipient: mail.recipient,
      // Serialised here so both drivers store the same text; jsonb parses it.
      input: sql`${JSON.stringify(mail.input)}::jsonb`,
      next_attempt_at: mail.createdAt, leased_until: null, created_at: mail.createdAt, finished_at: null, last_error: null,
    }).execute());
  }

  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMail[]> {
    const { rows } = await sql<ClaimRow>`
      select * from ${sql.id(CLAIM_MAIL)}(${now}::timestamptz, ${leaseUntil}::timestamptz, ${limit}::integer, ${this.proof})`.execute(this.scope.db);
    return rows.map((row) => ({
      id: row.id, tenantId: row.tenant_id, kind: row.kind, recipient: row.recipient, input: row.input, createdAt: row.created_at, attempt: row.attempt,
    }));
  }

  async finish(mailId: string, attempt: number, outcome: MailOutcome): Promise<boolean> {
    const status = outcome.status === 'retry' ? 'pending' : outcome.status;
    const next = outcome.status === 'retry' ? outcome.nextAttemptAt : null;
    const error = outcome.status === 'sent' ? null : outcome.error;
    const { rows } = await sql<{ finished: boolean }>`
      select ${sql.id(FINISH_MAIL)}(${mailId}::uuid, ${attempt}::integer, ${status}, ${outcome.at}::timestamptz,
        ${next}::timestamptz, ${error}, ${this.proof}) as finished`.execute(this.scope.db);
    return rows[0]?.finished === true;
  }

  async pruneFinished(before: Date): Promise<number> {
    const { rows } = await sql<{ dropped: number }>`select ${sql.id(PRUNE_MAIL)}(${before}::timestamptz, ${this.proof}) as dropped`.execute(this.scope.db);
    return Number(rows[0]?.dropped ?? 0);
  }
}
