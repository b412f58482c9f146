import { type Selectable, sql } from 'kysely';
import type { PasskeyChallengeRepository, PasskeyRepository } from '../../../../application/ports/repositories';
import { PasskeyAlreadyRegistered } from '../../../../domain/errors';
import { isUuid } from '../../../../domain/ids';
import type { Passkey } from '../../../../domain/passkey';
import { isUniqueViolation } from '../driver/pg-errors';
import type { TenantScope } from '../driver/tenant-scope';
import { LOOKUP_PASSKEY, PASSKEYS_CREDENTIAL_UNIQUE } from '../migrations/0019-passkeys';
import type { PasskeysTable } from '../schema';

type PasskeyRow = Selectable<PasskeysTable>;

function toPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id, tenantId: row.tenant_id, userId: row.user_id, credentialId: row.credential_id,
    publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')), signCount: Number(row.sign_count),
    transports: row.transports === '' ? [] : row.transports.split(' '), backedUp: row.backed_up, userHandle: row.user_handle,
    name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at,
  };
}

export class KyselyPasskeyRepository implements PasskeyRepository {
  constructor(private readonly scope: TenantScope) {}

  async create(passkey: Passkey): Promise<void> {
    try {
      await this.scope.forTenant(passkey.tenantId, (db) => db.insertInto('passkeys').values({
        id: passkey.id, tenant_id: passkey.tenantId, user_id: passkey.userId, credential_id: passkey.credentialId,
        public_key: Buffer.from(passkey.publicKey).toString('base64url'), sign_count: passkey.signCount,
        transports: passkey.transports.join(' '), backed_up: passkey.backedUp, user_handle: passkey.userHandle,
        name: passkey.name, created_at: passkey.createdAt, last_used_at: passkey.lastUsedAt,
      }).execute());
    } catch (error) {
      if (isUniqueViolation(error, PASSKEYS_CREDENTIAL_UNIQUE)) throw new PasskeyAlreadyRegistered();
      throw error;
    }
  }

  async listOf(tenantId: string, userId: string): Promise<Passkey[]> {
    if (!isUuid(tenantId) || !isUuid(userId)) return [];
    const rows = await this.scope.forTenant(tenantId, (db) => db.selectFrom('passkeys').selectAll()
      .where('tenant_id', '=', tenantId).where('user_id', '=', userId)
      .orderBy('created_at', 'asc').orderBy('id', 'asc').execute());
    return rows.map(toPasskey);
  }

  /** Crosses the tenant walls through the one function that answers an exact credential id (migration 0019). */
  async findByCredentialId(credentialId: string): Promise<Passkey | null> {
    const { rows } = await sql<PasskeyRow>`select * from ${sql.id(LOOKUP_PASSKEY)}(${credentialId})`.execute(this.scope.db);
    return rows[0] ? toPasskey(rows[0]) : null;
  }

  async rename(tenantId: string, userId: string, passkeyId: string, name: string): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(userId) || !isUuid(passkeyId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) => db.updateTable('passkeys').set({ name })
      .where('id', '=', passkeyId).where('tenant_id', '=', tenantId).where('user_id', '=', userId)
      .returning('id').execute());
    return rows.length > 0;
  }

  async remove(tenantId: string, userId: string, passkeyId: string): Promise<Passkey | null> {
    if (!isUuid(tenantId) || !isUuid(userId) || !isUuid(passkeyId)) return null;
    const rows = await this.scope.forTenant(tenantId, (db) => db.deleteFrom('passkeys')
      .where('id', '=', passkeyId).where('tenant_id', '=', tenantId).where('user_id', '=', userId)
      .returningAll().execute());
    return rows[0] ? toPasskey(rows[0]) : null;
  }

  /** One conditional UPDATE on the counter read: of two uses checked against it, the second matches nothing. */
  async recordUse(tenantId: string, passkeyId: string, use: { fromSignCount: number; toSignCount: number; backedUp: boolean; at: Date }): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(passkeyId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) => db.updateTable('passkeys')
      .set({ sign_count: use.toSignCount, backed_up: use.backedUp, last_used_at: use.at })
      .where('id', '=', passkeyId).where('tenant_id', '=', tenantId).where('sign_count', '=', use.fromSignCount)
      .returning('id').execute());
    return rows.length > 0;
  }
}

export class KyselyPasskeyChallengeRepository implements PasskeyChallengeRepository {
  constructor(private readonly scope: TenantScope) {}

  async create(challenge: Parameters<PasskeyChallengeRepository['create']>[0]): Promise<void> {
    await this.scope.forTenant(challenge.tenantId, (db) => db.insertInto('passkey_challenges').values({
      id: challenge.id, tenant_id: challenge.tenantId, user_id: challenge.userId, purpose: challenge.purpose, attempt_key: challenge.attemptKey,
      challenge: challenge.challenge, created_at: challenge.createdAt, expires_at: challenge.expiresAt, used_at: null,
    }).execute());
  }

  /** One conditional UPDATE: of two concurrent uses, the second re-checks after the first commits and matches nothing. */
  async consume(
    tenantId: string, userId: string, purpose: string, challenge: string, attemptKey: string | null, now: Date,
  ): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(userId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) => {
      let update = db.updateTable('passkey_challenges').set({ used_at: now })
        .where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('purpose', '=', purpose)
        .where('challenge', '=', challenge).where('used_at', 'is', null).where('expires_at', '>', now);
      update = attemptKey === null ? update.where('attempt_key', 'is', null) : update.where('attempt_key', '=', attemptKey);
      return update.returning('id').execute();
    });
    return rows.length > 0;
  }

  async beginSignIn(ceremony: { handleHash: string; challenge: string; createdAt: Date; expiresAt: Date }): Promise<void> {
    await this.scope.db.deleteFrom('passkey_sign_ins').where('expires_at', '<', ceremony.createdAt).execute();
    await this.scope.db.insertInto('passkey_sign_ins').values({
      handle_hash: ceremony.handleHash, challenge: ceremony.challenge, created_at: ceremony.createdAt, expires_at: ceremony.expiresAt, used_at: null,
    }).execute();
  }

  async consumeSignIn(handleHash: string, now: Date): Promise<string | null> {
    const rows = await this.scope.db.updateTable('passkey_sign_ins').set({ used_at: now })
      .where('handle_hash', '=', handleHash).where('used_at', 'is', null).where('expires_at', '>', now)
      .returning('challenge').execute();
    return rows[0]?.challenge ?? null;
  }
}
