import { AuthenticatorAppAlreadyEnrolled } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { callerGone } from '../authentication/caller-gone';
import type { RequestOrigin } from '../audit/audit-trail';
import type { AuthenticatorCodes } from '../ports/authenticator-codes';
import type { Clock } from '../ports/clock';
import type { FactorSecrets } from '../ports/factor-secrets';
import type { IdGenerator } from '../ports/ids';
import type { UnitOfWork } from '../ports/unit-of-work';
import { secretContext } from './authenticator-app-check';

export interface EnrollAuthenticatorAppDeps {
  readonly unitOfWork: UnitOfWork;
  readonly codes: AuthenticatorCodes;
  readonly factorSecrets: FactorSecrets;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

export interface AuthenticatorAppSecret {
  /** The shared secret, base32, for typing in by hand; shown this once. */
  readonly secret: string;
  /** The otpauth:// URI the console shows as a QR code. */
  readonly otpauthUri: string;
}

/**
 * POST /mfa/totp: a new secret for the caller's authenticator app, pending until a code from the app
 * confirms it (ConfirmAuthenticatorApp). A new call replaces a pending one; a confirmed one must be
 * removed first. The secret is stored sealed (FactorSecrets) and never shown again. The issuer the
 * app lists is the tenant's name, and the account is the member's address.
 */
export class EnrollAuthenticatorApp {
  constructor(private readonly deps: EnrollAuthenticatorAppDeps) {}

  async execute(caller: Principal, _origin?: RequestOrigin): Promise<AuthenticatorAppSecret> {
    const { unitOfWork, codes, factorSecrets, ids, clock } = this.deps;
    const owner = { tenantId: caller.tenantId, userId: caller.userId };
    const secret = codes.newSecret();
    return unitOfWork.run(async (tx) => {
      const member = await tx.users.findById(owner.tenantId, owner.userId);
      const tenant = await tx.tenants.findById(owner.tenantId);
      if (!member || !tenant) throw callerGone(caller);
      const existing = await tx.totpFactors.findByMember(owner.tenantId, owner.userId);
      if (existing?.confirmedAt) throw new AuthenticatorAppAlreadyEnrolled();
      await tx.totpFactors.deletePending(owner.tenantId, owner.userId);
      await tx.totpFactors.create({
        id: ids.newId(), tenantId: owner.tenantId, userId: owner.userId, secret: factorSecrets.seal(secret, secretContext(owner)),
        createdAt: clock.now(), confirmedAt: null, lastUsedStep: null,
      });
      return { secret, otpauthUri: codes.uri(secret, tenant.name, member.email) };
    });
  }
}
