import type { EmailTokenRepository, MailOutboxRepository } from '../../../application/ports/repositories';
import type { EmailToken } from '../../../domain/email-token';
import type { StoredMail } from './memory-state';

export function memoryEmailTokens(tokens: Map<string, EmailToken>): EmailTokenRepository {
  return {
    async create(token) {
      for (const t of tokens.values()) {
        if (t.id === token.id || t.tokenHash === token.tokenHash) throw new Error('duplicate key value violates unique constraint "email_tokens_token_hash_key"');
      }
      tokens.set(token.id, token);
    },
    async findByHash(tokenHash) {
      for (const token of tokens.values()) if (token.tokenHash === tokenHash) return token;
      return null;
    },
    async consume(tenantId, tokenId, now) {
      const token = tokens.get(tokenId);
      if (!token || token.tenantId !== tenantId || token.usedAt !== null || token.expiresAt.getTime() <= now.getTime()) return false;
      tokens.set(tokenId, { ...token, usedAt: now });
      return true;
    },
    async voidUnused(tenantId, userId, purpose, at) {
      let voided = 0;
      for (const token of tokens.values()) {
        if (token.tenantId !== tenantId || token.userId !== userId || token.purpose !== purpose || token.usedAt !== null) continue;
        tokens.set(token.id, { ...token, usedAt: at });
        voided += 1;
      }
      return voided;
    },
  };
}

/** Oldest due first, then by id, as the SQL claim orders. */
function dueOrder(a: StoredMail, b: StoredMail): number {
  return a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function memoryOutbox(outbox: Map<string, StoredMail>): MailOutboxRepository {
  return {
    async enqueue(mail) {
      if (outbox.has(mail.id)) throw new Error('duplicate key value violates unique constraint "mail_outbox_pkey"');
      outbox.set(mail.id, {
        ...mail, attempt: 0, status: 'pending', nextAttemptAt: mail.createdAt, leasedUntil: null, finishedAt: null, lastError: null,
      });
    },
    // Calls are serialised (memory-storage.ts), so no two claims see the same free message.
    async claimDue(now, leaseUntil, limit) {
      const due = [...outbox.values()]
        .filter((m) => m.status === 'pending' && m.nextAttemptAt.getTime() <= now.getTime()
          && (m.leasedUntil === null || m.leasedUntil.getTime() <= now.getTime()))
        .sort(dueOrder)
        .slice(0, limit);
      return due.map((m) => {
        const claimed: StoredMail = { ...m, attempt: m.attempt + 1, leasedUntil: leaseUntil };
        outbox.set(m.id, claimed);
        const { id, tenantId, kind, recipient, input, createdAt, attempt } = claimed;
        return { id, tenantId, kind, recipient, input, createdAt, attempt };
      });
    },
    async finish(mailId, attempt, outcome) {
      const mail = outbox.get(mailId);
      if (!mail || mail.status !== 'pending' || mail.attempt !== attempt) return false;
      outbox.set(mailId, outcome.status === 'retry'
        ? { ...mail, nextAttemptAt: outcome.nextAttemptAt, leasedUntil: null, lastError: outcome.error }
        : { ...mail, status: outcome.status, input: {}, leasedUntil: null, finishedAt: outcome.at, lastError: outcome.status === 'failed' ? outcome.error : null });
      return true;
    },
    async pruneFinished(before) {
      let dropped = 0;
      for (const [id, mail] of outbox) {
        if (mail.status !== 'pending' && mail.finishedAt !== null && mail.finishedAt.getTime() < before.getTime()) {
          outbox.delete(id);
          dropped += 1;
        }
      }
      return dropped;
    },
  };
}
