import { InvalidPasskeyRegistration } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { normalizeVisibleText } from '../../domain/visible-text';
import { type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { callerGone } from '../authentication/caller-gone';
import { ceremonyExpiry, credentialRefs, type PasskeyDeps, userHandleOf } from './passkey-deps';

export interface RegisteredPasskey {
  readonly id: string;
  readonly name: string;
  readonly createdAt: Date;
}

/**
 * Adding a passkey to the caller's account, in two requests: the creation options (a challenge
 * stored for the caller, their existing credentials excluded), then the authenticator's response,
 * which must answer that challenge from this service's origin. The challenge is used inside the
 * unit of work that stores the passkey, its audit event and the member's notice, so a response is
 * accepted once, on any instance.
 */
export class RegisterPasskey {
  constructor(private readonly deps: PasskeyDeps) {}

  async options(caller: Principal): Promise<unknown> {
    const { repos, webauthn, ids, secrets, clock } = this.deps;
    const member = await repos.users.findById(caller.tenantId, caller.userId);
    if (!member) throw callerGone(caller);
    const existing = await repos.passkeys.listOf(caller.tenantId, caller.userId);
    const challenge = webauthn.newChallenge();
    const now = clock.now();
    await repos.passkeyChallenges.create({
      id: ids.newId(), tenantId: caller.tenantId, userId: caller.userId, purpose: 'registration', attemptKey: null,
      challenge, createdAt: now, expiresAt: ceremonyExpiry(now),
    });
    return webauthn.registrationOptions({
      challenge, userHandle: userHandleOf(secrets, caller), userName: member.email, exclude: credentialRefs(existing),
    });
  }

  async execute(caller: Principal, input: { name: string; response: unknown }, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<RegisteredPasskey> {
    const { unitOfWork, webauthn, ids, secrets, clock, trail, postbox } = this.deps;
    const claims = webauthn.claims(input.response);
    if (!claims) throw new InvalidPasskeyRegistration();
    // Verified against the challenge it claims; that the challenge is this member's, unused and
    // unexpired is what consuming it below proves.
    const credential = await webauthn.verifyRegistration(input.response, claims.challenge);
    if (!credential) throw new InvalidPasskeyRegistration();
    const name = normalizeVisibleText(input.name);
    const id = ids.newId();
    const now = clock.now();
    await unitOfWork.run(async (tx) => {
      if (!(await tx.passkeyChallenges.consume(caller.tenantId, caller.userId, 'registration', claims.challenge, null, now))) {
        throw new InvalidPasskeyRegistration();
      }
      const member = await tx.users.findById(caller.tenantId, caller.userId);
      if (!member) throw callerGone(caller);
      await tx.passkeys.create({
        id, tenantId: caller.tenantId, userId: caller.userId, credentialId: credential.credentialId, publicKey: credential.publicKey,
        signCount: credential.signCount, transports: credential.transports, backedUp: credential.backedUp,
        userHandle: userHandleOf(secrets, caller), name, createdAt: now, lastUsedAt: null,
      });
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'mfa.enrolled', targetId: id, details: { method: 'passkey', name },
      }));
      const tenant = await tx.tenants.findById(caller.tenantId);
      if (tenant) {
        await postbox.post(tx, {
          tenantId: caller.tenantId, userId: caller.userId,
          mail: { kind: 'passkey-added', input: { to: member.email, tenantName: tenant.name, passkeyName: name, addedAt: now.toISOString() } },
        }, origin);
      }
    });
    return { id, name, createdAt: now };
  }
}
