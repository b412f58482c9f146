import type { AuditTrail } from '../audit/audit-trail';
import type { Postbox } from '../mail/postbox';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/ids';
import type { Repositories } from '../ports/repositories';
import type { Secrets } from '../ports/secrets';
import type { UnitOfWork } from '../ports/unit-of-work';
import type { WebAuthnCeremonies } from '../ports/webauthn';
import type { FactorOwner } from '../mfa/second-factor';
import { PASSKEY_CEREMONY_TTL_SECONDS } from '../../domain/passkey';
import type { CredentialRef } from '../ports/webauthn';
import type { Passkey } from '../../domain/passkey';

/** What the passkey use-cases share. */
export interface PasskeyDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  readonly webauthn: WebAuthnCeremonies;
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  readonly clock: Clock;
  readonly trail: AuditTrail;
  readonly postbox: Postbox;
}

/**
 * The WebAuthn user handle of a member: the SHA-256 of their tenant and id, so every passkey of a
 * member carries the same handle and none carries the member's id itself. Hex is valid base64url.
 */
export function userHandleOf(secrets: Secrets, owner: FactorOwner): string {
  return secrets.sha256Hex(`${owner.tenantId}:${owner.userId}`);
}

export function ceremonyExpiry(now: Date): Date {
  return new Date(now.getTime() + PASSKEY_CEREMONY_TTL_SECONDS * 1000);
}

export function credentialRefs(passkeys: readonly Passkey[]): CredentialRef[] {
  return passkeys.map((p) => ({ credentialId: p.credentialId, transports: p.transports }));
}
