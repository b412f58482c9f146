import { API_KEY_RANDOM_BYTES, apiKeyExpiry, apiKeyLookupPrefix, composeApiKey } from '../../domain/api-key';
import { SecondFactorSessionRequired } from '../../domain/errors';
import { PASSWORD_AMR, usedSecondFactor } from '../../domain/second-factor';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import { normalizeVisibleText } from '../../domain/visible-text';
import { holdCaller } from '../authentication/hold-caller';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { callerGone } from '../authentication/caller-gone';
import type { Postbox } from '../mail/postbox';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/ids';
import type { Secrets } from '../ports/secrets';
import type { UnitOfWork } from '../ports/unit-of-work';

/** Both optional: without them the key is unnamed and never expires, exactly as the API reference describes (docs/openapi.yaml, CreateApiKeyRequest). */
export interface CreateApiKeyInput {
  readonly name?: string | undefined;
  readonly expiresInDays?: number | undefined;
}

export interface CreatedApiKey {
  readonly id: string;
  /** The raw key: shown to the caller once, never stored. */
  readonly apiKey: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly expiresAt: Date | null;
}

export interface CreateApiKeyDeps {
  readonly unitOfWork: UnitOfWork;
  readonly trail: AuditTrail;
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  readonly clock: Clock;
  /** Where the "an API key was created" notice goes. */
  readonly postbox: Postbox;
}

/**
 * POST /api-keys: a key that acts as the caller. The caller is told by e-mail, in the same unit of
 * work, with the key's name and prefix only: a key made with a stolen session is then seen by the
 * person it acts as.
 */
export class CreateApiKey {
  constructor(private readonly deps: CreateApiKeyDeps) {}

  async execute(caller: Principal, input: CreateApiKeyInput = {}, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<CreatedApiKey> {
    assertRoleAtLeast(caller.role, 'admin');
    const { unitOfWork, trail, ids, secrets, clock, postbox } = this.deps;
    const apiKey = composeApiKey(secrets.randomHex(API_KEY_RANDOM_BYTES));
    const prefix = apiKeyLookupPrefix(apiKey);
    const now = clock.now();
    const id = ids.newId();
    const name = input.name === undefined ? null : normalizeVisibleText(input.name);
    const expiresAt = apiKeyExpiry(now, input.expiresInDays);
    await unitOfWork.run(async (tx) => {
      await holdCaller(tx.users, caller, 'admin');
      // A key outlives the session that made it: where the tenant requires a second factor, only a
      // session that used one may make a key (another key may not).
      if (!usedSecondFactor(caller.amr ?? PASSWORD_AMR) && (await tx.tenants.mfaPolicy(caller.tenantId)) === 'required') {
        throw new SecondFactorSessionRequired();
      }
      await tx.apiKeys.create({
        id,
        tenantId: caller.tenantId,
        userId: caller.userId,
        keyPrefix: prefix,
        keyHash: secrets.sha256Hex(apiKey),
        revoked: false,
        createdAt: now,
        name,
        expiresAt,
        lastUsedAt: null,
      });
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId,
        actor: caller,
        action: 'api_key.created',
        targetId: id,
        details: { prefix, name, expires_at: expiresAt?.toISOString() ?? null },
      }));
      const owner = await tx.users.findById(caller.tenantId, caller.userId);
      if (!owner) throw callerGone(caller);
      const tenant = await tx.tenants.findById(caller.tenantId);
      if (tenant) {
        await postbox.post(tx, {
          tenantId: caller.tenantId, userId: owner.id,
          mail: { kind: 'api-key-created', input: { to: owner.email, tenantName: tenant.name, keyName: name, keyPrefix: prefix, createdAt: now.toISOString() } },
        }, origin);
      }
    });
    return { id, apiKey, prefix, name, expiresAt };
  }
}
