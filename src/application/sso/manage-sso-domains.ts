import { SsoDomainInvalid, SsoDomainNotFound, SsoVerificationRecordNotFound } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import {
  normaliseDomain, recordsHold, SSO_VERIFICATION_BYTES, type SsoDomain, verificationRecordName, verificationValue,
} from '../../domain/sso';
import { type AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { Clock } from '../ports/clock';
import type { DnsTxtRecords } from '../ports/dns-txt-records';
import type { Repositories } from '../ports/repositories';
import type { Secrets } from '../ports/secrets';
import type { UnitOfWork } from '../ports/unit-of-work';

export interface ManageSsoDomainsDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  readonly dns: DnsTxtRecords;
  readonly secrets: Secrets;
  readonly clock: Clock;
  readonly trail: AuditTrail;
}

/** A claim as it is answered: where its TXT record goes and what it must hold. */
export interface SsoDomainClaim extends SsoDomain {
  readonly txtName: string;
}

const claimOf = (domain: SsoDomain): SsoDomainClaim => ({ ...domain, txtName: verificationRecordName(domain.domain) });

/**
 * A tenant's domains (owner; an admin may list them). A claim gets a random TXT value; the owner
 * publishes it at `_portcullis-verification.<domain>`, and verifying reads it from DNS. Whoever
 * verifies a domain first holds it: another tenant's claim stays unverified, and a new claim of a
 * domain verified elsewhere is refused (SsoDomainTaken). DNS is asked before the unit of work, and
 * the unit of work verifies only the claim whose value was found (a claim removed and made again
 * meanwhile has another value). Each change is audited.
 */
export class ManageSsoDomains {
  constructor(private readonly deps: ManageSsoDomainsDeps) {}

  async list(caller: Principal): Promise<SsoDomainClaim[]> {
    assertRoleAtLeast(caller.role, 'admin');
    return (await this.deps.repos.ssoDomains.listFor(caller.tenantId)).map(claimOf);
  }

  /** The new claim (`created`), or the tenant's existing claim of that domain unchanged. */
  async add(caller: Principal, rawDomain: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<{ claim: SsoDomainClaim; created: boolean }> {
    assertRoleAtLeast(caller.role, 'owner');
    const domain = normaliseDomain(rawDomain);
    if (domain === null) throw new SsoDomainInvalid();
    const { unitOfWork, secrets, clock, trail } = this.deps;
    const claim: SsoDomain = {
      domain, tenantId: caller.tenantId, txtValue: verificationValue(secrets.randomHex(SSO_VERIFICATION_BYTES)), verifiedAt: null, createdAt: clock.now(),
    };
    return unitOfWork.run(async (tx) => {
      if (!(await tx.ssoDomains.add(claim))) return { claim: claimOf(await this.claimIn(tx, caller.tenantId, domain)), created: false };
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'sso.domain_added', targetId: caller.tenantId, details: { domain },
      }));
      return { claim: claimOf(claim), created: true };
    });
  }

  async verify(caller: Principal, rawDomain: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<SsoDomainClaim> {
    assertRoleAtLeast(caller.role, 'owner');
    const domain = normaliseDomain(rawDomain);
    if (domain === null) throw new SsoDomainNotFound();
    const { repos, unitOfWork, dns, clock, trail } = this.deps;
    const before = await this.claimIn(repos, caller.tenantId, domain);
    if (before.verifiedAt !== null) return claimOf(before);
    if (!recordsHold(await dns.resolveTxt(verificationRecordName(domain)), before.txtValue)) throw new SsoVerificationRecordNotFound();
    return unitOfWork.run(async (tx) => {
      const current = await this.claimIn(tx, caller.tenantId, domain);
      if (current.verifiedAt !== null) return claimOf(current);
      if (current.txtValue !== before.txtValue) throw new SsoVerificationRecordNotFound();
      const verified = await tx.ssoDomains.markVerified(caller.tenantId, domain, clock.now());
      if (!verified) throw new SsoDomainNotFound();
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'sso.domain_verified', targetId: caller.tenantId, details: { domain },
      }));
      return claimOf(verified);
    });
  }

  async remove(caller: Principal, rawDomain: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    assertRoleAtLeast(caller.role, 'owner');
    const domain = normaliseDomain(rawDomain);
    if (domain === null) throw new SsoDomainNotFound();
    const { unitOfWork, trail } = this.deps;
    await unitOfWork.run(async (tx) => {
      const claim = await this.claimIn(tx, caller.tenantId, domain);
      await tx.ssoDomains.remove(caller.tenantId, domain);
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'sso.domain_removed', targetId: caller.tenantId,
        details: { domain, was_verified: claim.verifiedAt !== null },
      }));
    });
  }

  private async claimIn(repos: Repositories, tenantId: string, domain: string): Promise<SsoDomain> {
    const claim = (await repos.ssoDomains.listFor(tenantId)).find((candidate) => candidate.domain === domain);
    if (!claim) throw new SsoDomainNotFound();
    return claim;
  }
}
