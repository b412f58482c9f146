import { PasskeyNotFound } from '../../domain/errors';
import type { Passkey } from '../../domain/passkey';
import type { Principal } from '../../domain/principal';
import { normalizeVisibleText } from '../../domain/visible-text';
import { type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { PasskeyDeps } from './passkey-deps';

/**
 * The caller's own passkeys: listed (never the key material), renamed, removed. Any id that is not
 * one of the caller's (another member's, another tenant's, malformed) is one answer: not found.
 * A removal is audited and the member told, in one unit of work.
 */
export class ManagePasskeys {
  constructor(private readonly deps: PasskeyDeps) {}

  list(caller: Principal): Promise<Passkey[]> {
    return this.deps.repos.passkeys.listOf(caller.tenantId, caller.userId);
  }

  async rename(caller: Principal, passkeyId: string, name: string): Promise<void> {
    if (!(await this.deps.repos.passkeys.rename(caller.tenantId, caller.userId, passkeyId.toLowerCase(), normalizeVisibleText(name)))) {
      throw new PasskeyNotFound();
    }
  }

  async remove(caller: Principal, passkeyId: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    const { unitOfWork, trail, postbox, clock } = this.deps;
    await unitOfWork.run(async (tx) => {
      const removed = await tx.passkeys.remove(caller.tenantId, caller.userId, passkeyId.toLowerCase());
      if (!removed) throw new PasskeyNotFound();
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'mfa.removed', targetId: removed.id, details: { method: 'passkey', name: removed.name },
      }));
      const member = await tx.users.findById(caller.tenantId, caller.userId);
      const tenant = await tx.tenants.findById(caller.tenantId);
      if (member && tenant) {
        await postbox.post(tx, {
          tenantId: caller.tenantId, userId: caller.userId,
          mail: { kind: 'passkey-removed', input: { to: member.email, tenantName: tenant.name, passkeyName: removed.name, removedAt: clock.now().toISOString() } },
        }, origin);
      }
    });
  }
}
