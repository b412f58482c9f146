import { type Selectable, sql } from 'kysely';
import type { EmailTokenRepository } from '../../../../application/ports/repositories';
import { EMAIL_TOKEN_PURPOSES, type EmailToken, type EmailTokenPurpose } from '../../../../domain/email-token';
import { isUuid } from '../../../../domain/ids';
import { LOOKUP_EMAIL_TOKEN } from '../migrations/0013-email-tokens-and-outbox';
import type { EmailTokensTable } from '../schema';
import type { TenantScope } from '../driver/tenant-scope';

type TokenRow = Selectable<EmailTokensTable>;

function storedPurpose(value: string): EmailTokenPurpose {
  if (!(EMAIL_TOKEN_PURPOSES as readonly string[]).includes(value)) throw new Error(`email_tokens holds an unknown purpose: ${value}`);
  return value as EmailTokenPurpose;
}

function toToken(row: TokenRow): EmailToken {
  return {
    id: row.id, tenantId: row.tenant_id, userId: row.user_id, purpose: storedPurpose(row.purpose), tokenHash: row.token_hash,
    email: row.email, createdAt: row.created_at, expiresAt: row.expires_at, usedAt: row.used_at,
  };
}

export class KyselyEmailTokenRepository implements EmailTokenRepository {
  constructor(private readonly scope: TenantScope) {}

  async create(token: EmailToken): Promise<void> {
    await this.scope.forTenant(token.tenantId, (db) => db.insertInto('email_tokens').values({
      id: token.id, tenant_id: token.tenantId, user_id: token.userId, purpose: token.purpose, token_hash: token.tokenHash,
      email: token.email, created_at: token.createdAt, expires_at: token.expiresAt, used_at: token.usedAt,
    }).execute());
  }

  /** Crosses the tenant walls through the one function that answers an exact hash (migration 0013). */
  async findByHash(tokenHash: string): Promise<EmailToken | null> {
    const { rows } = await sql<TokenRow>`select * from ${sql.id(LOOKUP_EMAIL_TOKEN)}(${tokenHash})`.execute(this.scope.db);
    return rows[0] ? toToken(rows[0]) : null;
  }

  /** One conditional UPDATE: of two concurrent uses, the second re-checks after the first commits and matches nothing. */
  async consume(tenantId: string, tokenId: string, now: Date): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(tokenId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) => db.updateTable('email_tokens').set({ used_at: now })
      .where('id', '=', tokenId).where('tenant_id', '=', tenantId)
      .where('used_at', 'is', null).where('expires_at', '>', now)
      .returning('id').execute());
    return rows.length > 0;
  }

  async voidUnused(tenantId: string, userId: string, purpose: EmailTokenPurpose, at: Date): Promise<number> {
    if (!isUuid(tenantId) || !isUuid(userId)) return 0;
    const rows = await this.scope.forTenant(tenantId, (db) => db.updateTable('email_tokens').set({ used_at: at })
      .where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .returning('id').execute());
    return rows.length;
  }
}
