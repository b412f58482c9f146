import { API_KEY_RANDOM_BYTES, apiKeyExpiry, apiKeyLookupPrefix, composeApiKey } from '../../domain/api-key';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import { normalizeVisibleText } from '../../domain/visible-text';
import { holdCaller } from '../authentication/hold-caller';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
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
}

export class CreateApiKey {
  constructor(private readonly deps: CreateApiKeyDeps) {}

  async execute(caller: Principal, input: CreateApiKeyInput = {}, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<CreatedApiKey> {
    assertRoleAtLeast(caller.role, 'admin');
    const { unitOfWork, trail, ids, secrets, clock } = this.deps;
    const apiKey = composeApiKey(secrets.randomHex(API_KEY_RANDOM_BYTES));
    const prefix = apiKeyLookupPrefix(apiKey);
    const now = clock.now();
    const id = ids.newId();
    const name = input.name === undefined ? null : normalizeVisibleText(input.name);
    const expiresAt = apiKeyExpiry(now, input.expiresInDays);
    await unitOfWork.run(async (tx) => {
      await holdCaller(tx.users, caller, 'admin');
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
    });
    return { id, apiKey, prefix, name, expiresAt };
  }
}
