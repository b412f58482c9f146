import { normalizeEmail } from '../../domain/email';
import { InvalidPasskey } from '../../domain/errors';
import { isWellFormedCeremonyHandle, PASSKEY_CEREMONY_HANDLE_BYTES, type Passkey } from '../../domain/passkey';
import { type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { postNewSignInNotice } from '../login/new-sign-in-notice';
import type { DeviceProof, DeviceProofs } from '../ports/device-proofs';
import type { SessionBook } from '../sessions/session-book';
import type { TokenService } from '../ports/token-service';
import { ceremonyExpiry, type PasskeyDeps } from './passkey-deps';
import type { Amr } from '../../domain/second-factor';
import { enrollmentClaim } from '../mfa/enrollment-sessions';
import { mustUseSso } from '../sso/sso-required';

export interface PasskeySignInOptions {
  /** The ceremony's handle: the client sends it back with the assertion. */
  readonly ceremony: string;
  readonly options: unknown;
}

export interface PasskeySignInResult {
  readonly token: string;
  readonly expiresIn: string;
  /** The client's proof of this device for later sign-ins, as a password login hands it. */
  readonly deviceProof: DeviceProof;
}

export interface PasskeySignInDeps extends PasskeyDeps {
  readonly tokens: TokenService;
  readonly sessions: SessionBook;
  /** Which devices signed in to the account before: a sign-in from any other is told to the member. */
  readonly deviceProofs: DeviceProofs;
}

/**
 * Passwordless sign-in with a passkey (a discoverable credential, nobody named beforehand). The
 * options call stores a challenge under the SHA-256 of a random handle, in storage, so the
 * assertion may reach another instance; the assertion spends the ceremony first, whatever follows,
 * so a ceremony is answered at most once. Every refusal is the same 401 and a `login.failed` event
 * naming the reason. As after a password login, a sign-in without a valid device proof of the
 * account is a device it has not seen: the member is told in the unit of work that records the
 * success, and the device is handed a proof (docs/security.md, "New sign-in notices").
 */
export class PasskeySignIn {
  constructor(private readonly deps: PasskeySignInDeps) {}

  async options(): Promise<PasskeySignInOptions> {
    const { repos, webauthn, secrets, clock } = this.deps;
    const ceremony = secrets.randomHex(PASSKEY_CEREMONY_HANDLE_BYTES);
    const challenge = webauthn.newChallenge();
    const now = clock.now();
    await repos.passkeyChallenges.beginSignIn({ handleHash: secrets.sha256Hex(ceremony), challenge, createdAt: now, expiresAt: ceremonyExpiry(now) });
    return { ceremony, options: await webauthn.authenticationOptions({ challenge, allow: [] }) };
  }

  async execute(
    input: { ceremony: unknown; response: unknown; deviceProof?: string | undefined }, origin: RequestOrigin = UNKNOWN_ORIGIN,
  ): Promise<PasskeySignInResult> {
    const { repos, unitOfWork, webauthn, secrets, clock, trail, tokens, sessions, deviceProofs, postbox } = this.deps;
    if (!isWellFormedCeremonyHandle(input.ceremony)) return this.refuse(origin, null, 'invalid_ceremony');
    const claims = webauthn.claims(input.response);
    if (!claims) return this.refuse(origin, null, 'malformed_response');
    const challenge = await repos.passkeyChallenges.consumeSignIn(secrets.sha256Hex(input.ceremony), clock.now());
    if (challenge === null) return this.refuse(origin, null, 'ceremony_used_or_expired');
    const passkey = await repos.passkeys.findByCredentialId(claims.credentialId);
    if (!passkey) return this.refuse(origin, null, 'unknown_credential');
    if (claims.userHandle !== null && claims.userHandle !== passkey.userHandle) return this.refuse(origin, passkey, 'user_handle_mismatch');
    const verified = await webauthn.verifyAssertion(input.response, challenge, passkey);
    if (!verified) return this.refuse(origin, passkey, 'invalid_assertion');
    const user = await repos.users.findById(passkey.tenantId, passkey.userId);
    if (!user) return this.refuse(origin, null, 'unknown_credential');
    // Single sign-on required: the provider is the one way in, so removing someone there cuts them off
    // (the passkey stays, a second factor after the provider's sign-in).
    if (await mustUseSso(repos, user)) return this.refuse(origin, passkey, 'sso_required');

    // The authenticator verified its user (a PIN, a biometric): something held and something known or
    // been, both factors. Otherwise the passkey alone.
    const amr: Amr[] = verified.userVerified ? ['passkey', 'mfa'] : ['passkey'];
    // The key a password login proves the device for: the same proof counts for both ways in.
    const accountKey = secrets.sha256Hex(normalizeEmail(user.email));
    const device = input.deviceProof === undefined ? null : deviceProofs.verify(input.deviceProof, accountKey);
    const now = clock.now();
    const succeeded = trail.event(origin, {
      tenantId: user.tenantId, actor: { userId: user.id, method: 'none' }, action: 'login.succeeded', targetId: user.id,
      details: { method: 'passkey', passkey_id: passkey.id, user_verified: verified.userVerified },
    });
    const sessionId = await unitOfWork.run(async (tx) => {
      // The counter read before the check is the one replaced: a second use checked against it loses.
      const recorded = await tx.passkeys.recordUse(passkey.tenantId, passkey.id, {
        fromSignCount: passkey.signCount, toSignCount: verified.newSignCount, backedUp: verified.backedUp, at: now,
      });
      if (!recorded) return null;
      await tx.auditEvents.append(succeeded);
      if (device === null) await postNewSignInNotice(postbox, clock, tx, user, succeeded, origin);
      return sessions.start(tx, { tenantId: user.tenantId, userId: user.id }, 'passkey', origin, amr);
    });
    if (sessionId === null) return this.refuse(origin, passkey, 'counter_moved');
    const token = tokens.issue({
      tenantId: user.tenantId, userId: user.id, email: user.email, role: user.role, authVersion: user.authVersion, sessionId, amr,
      ...await enrollmentClaim(repos, user.tenantId, amr),
    });
    return { token, expiresIn: tokens.expiresIn, deviceProof: deviceProofs.issue(accountKey, device ?? undefined) };
  }

  /** A failure for a known credential goes to its tenant's trail; otherwise it is kept without a tenant, as login's are. */
  private async refuse(origin: RequestOrigin, passkey: Passkey | null, reason: string): Promise<never> {
    await this.deps.repos.auditEvents.append(this.deps.trail.event(origin, {
      tenantId: passkey?.tenantId ?? null, actor: { userId: null, method: 'none' }, action: 'login.failed',
      targetId: passkey?.userId ?? null, details: { reason, method: 'passkey' },
    }));
    throw new InvalidPasskey();
  }
}
