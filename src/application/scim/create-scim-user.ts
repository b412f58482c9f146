import { normalizeEmail } from '../../domain/email';
import { INITIAL_AUTH_VERSION, type User } from '../../domain/user';
import { type AuditTrail, type RequestOrigin, SCIM_ACTOR, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { suspendMemberIn, type SuspensionDeps } from '../members/member-suspension';
import type { IdGenerator } from '../ports/ids';
import type { PasswordHasher } from '../ports/password-hasher';
import type { Secrets } from '../ports/secrets';
import type { UnitOfWork } from '../ports/unit-of-work';
import type { ProvisioningRules } from './provisioning-rules';
import type { ScimCaller } from './scim-caller';
import { type ScimMember, scimMemberOrThrow } from './scim-members';

export interface CreateScimUserDeps extends SuspensionDeps {
  readonly unitOfWork: UnitOfWork;
  readonly trail: AuditTrail;
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  readonly hasher: PasswordHasher;
  readonly provisioning: ProvisioningRules;
}

export interface NewScimUser {
  readonly email: string;
  /** False: created suspended (a provider may push someone it has already deactivated). */
  readonly active: boolean;
}

/**
 * POST /Users: a new member of the token's tenant, with no password of their own. They sign in
 * through the tenant's single sign-on, or set a password through the ordinary reset link (POST
 * /forgot-password). The stored hash is of random bytes nobody holds, made like any other (before the
 * unit of work), so a password sign-in attempt for them costs and answers what any wrong password
 * does. A taken address is EmailAlreadyRegistered, whoever holds it.
 */
export class CreateScimUser {
  constructor(private readonly deps: CreateScimUserDeps) {}

  async execute(caller: ScimCaller, input: NewScimUser, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<ScimMember> {
    const { unitOfWork, trail, ids, secrets, hasher, provisioning, clock } = this.deps;
    const email = normalizeEmail(input.email);
    const passwordHash = await hasher.hash(secrets.randomHex(32));
    const by = { tenantId: caller.tenantId, actor: SCIM_ACTOR };
    return unitOfWork.run(async (tx) => {
      const role = await provisioning.newMemberRole(tx, caller.tenantId, email);
      const user: User = {
        id: ids.newId(), tenantId: caller.tenantId, email, passwordHash, role, createdAt: clock.now(), authVersion: INITIAL_AUTH_VERSION,
      };
      await tx.users.create(user);
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId, actor: SCIM_ACTOR, action: 'scim.user_created', targetId: user.id, details: { email, role, active: input.active },
      }));
      if (input.active) return { user, suspendedAt: null };
      await suspendMemberIn(tx, this.deps, by, user.id, origin);
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId, actor: SCIM_ACTOR, action: 'scim.user_suspended', targetId: user.id, details: { email },
      }));
      return scimMemberOrThrow(tx, caller.tenantId, user.id);
    });
  }
}
