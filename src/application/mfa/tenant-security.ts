import { SecondFactorSessionRequired } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import { type MfaPolicy, usedSecondFactor } from '../../domain/second-factor';
import type { User } from '../../domain/user';
import { callerGone } from '../authentication/caller-gone';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { Repositories } from '../ports/repositories';
import type { UnitOfWork } from '../ports/unit-of-work';
import type { SessionBook } from '../sessions/session-book';
import type { SecondFactors } from './second-factors';

/** A tenant's second-factor policy, and who would be (or is) held to enroll under `required`. */
export interface TenantSecurity {
  readonly mfa: MfaPolicy;
  /** Members (removed ones excluded) with no second factor of any kind, oldest first. */
  readonly membersWithoutFactor: readonly User[];
}

export interface ManageTenantSecurityDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  readonly factors: SecondFactors;
  readonly sessions: SessionBook;
  readonly trail: AuditTrail;
}

/**
 * GET and PATCH /tenant/security (owner; PATCH with recent authentication). Switching to `required`
 * leaves only sessions that used a second factor: in one unit of work with the change, a member
 * without any factor is signed out everywhere (their auth version rises, as a role change does,
 * and their sessions end), and every other member's sessions without `mfa` in their amr end. Each
 * instance refuses the ended sessions from its next request (the credential change log). The
 * caller must hold such a session themselves (403 otherwise), so the switch never signs out the
 * owner making it. Switching back to `optional` ends nothing. Every change is `tenant.security_changed`.
 */
export class ManageTenantSecurity {
  constructor(private readonly deps: ManageTenantSecurityDeps) {}

  async get(caller: Principal): Promise<TenantSecurity> {
    assertRoleAtLeast(caller.role, 'owner');
    const mfa = await this.deps.repos.tenants.mfaPolicy(caller.tenantId);
    if (mfa === null) throw callerGone(caller);
    return { mfa, membersWithoutFactor: await this.withoutFactor(this.deps.repos, caller.tenantId) };
  }

  async set(caller: Principal, policy: MfaPolicy, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<TenantSecurity> {
    assertRoleAtLeast(caller.role, 'owner');
    if (policy === 'required' && !usedSecondFactor(caller.amr ?? [])) throw new SecondFactorSessionRequired();
    const { unitOfWork, sessions, trail } = this.deps;
    return unitOfWork.run(async (tx) => {
      // Members joining or enrolling meanwhile wait for the switch, then see it.
      if (!(await tx.tenants.lockMembership(caller.tenantId))) throw callerGone(caller);
      const before = await tx.tenants.mfaPolicy(caller.tenantId);
      if (before === null) throw callerGone(caller);
      const withoutFactor = await this.withoutFactor(tx, caller.tenantId);
      if (before === policy) return { mfa: policy, membersWithoutFactor: withoutFactor };
      await tx.tenants.setMfaPolicy(caller.tenantId, policy);
      let membersSignedOut = 0;
      let sessionsEnded = 0;
      if (policy === 'required') {
        const without = new Set(withoutFactor.map((m) => m.id));
        for (const member of await tx.users.listMembers(caller.tenantId)) {
          const owner = { tenantId: member.tenantId, userId: member.id };
          if (without.has(member.id)) {
            await tx.users.raiseAuthVersion(owner.tenantId, owner.userId);
            sessionsEnded += await sessions.endAll(tx, owner, caller, 'admin', origin);
            membersSignedOut += 1;
            continue;
          }
          for (const session of await tx.sessions.listLive(owner.tenantId, owner.userId)) {
            if (usedSecondFactor(session.amr)) continue;
            if (await sessions.end(tx, owner, session.id, caller, 'admin', origin)) sessionsEnded += 1;
          }
        }
      }
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'tenant.security_changed', targetId: caller.tenantId,
        details: { mfa_from: before, mfa_to: policy, members_signed_out: membersSignedOut, sessions_ended: sessionsEnded },
      }));
      return { mfa: policy, membersWithoutFactor: withoutFactor };
    });
  }

  private async withoutFactor(repos: Repositories, tenantId: string): Promise<User[]> {
    const without: User[] = [];
    for (const member of await repos.users.listMembers(tenantId)) {
      if ((await this.deps.factors.methodsOf(repos, { tenantId, userId: member.id })).length === 0) without.push(member);
    }
    return without;
  }
}
