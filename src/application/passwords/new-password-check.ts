import {
  DomainError, PasswordContainsEmail, PasswordContainsTenantName, PasswordTooCommon,
} from '../../domain/errors';
import {
  type PasswordContext, type PasswordPolicyName, type PasswordRefusal, strictPasswordRefusal,
} from '../../domain/password-policy';
import type { User } from '../../domain/user';
import type { CommonPasswords } from '../ports/common-passwords';
import type { TenantRepository } from '../ports/repositories';

export interface NewPasswordCheckDeps {
  /** PASSWORD_POLICY: `default` checks nothing beyond the boundary's length rule. */
  readonly policy: PasswordPolicyName;
  readonly commonPasswords: CommonPasswords;
}

/**
 * Where the context comes from: given, or read only when the policy needs it, so the default
 * policy adds no storage read to a signup or a change.
 */
export type PasswordContextSource = PasswordContext | (() => Promise<PasswordContext>);

const REFUSALS: Readonly<Record<PasswordRefusal, new () => DomainError>> = {
  common: PasswordTooCommon,
  contains_email: PasswordContainsEmail,
  contains_tenant_name: PasswordContainsTenantName,
};

/**
 * The password policy for every way a password is set (signup, a change, a reset). Call it before
 * the password is hashed: it costs a lookup in memory where the hash costs a deliberate fraction
 * of a second, so a refused password wastes none of it.
 */
export class NewPasswordCheck {
  constructor(private readonly deps: NewPasswordCheckDeps) {}

  /** Throws the policy's refusal (PasswordTooCommon, PasswordContainsEmail, PasswordContainsTenantName); resolves when the password may be set. */
  async check(password: string, context: PasswordContextSource): Promise<void> {
    if (this.deps.policy === 'default') return;
    const known = typeof context === 'function' ? await context() : context;
    const refusal = strictPasswordRefusal(password, known, (candidate) => this.deps.commonPasswords.has(candidate));
    if (refusal !== null) throw new REFUSALS[refusal]();
  }
}

/**
 * The context of a member's new password (a change, a reset): their address and their tenant's
 * name, the name read only when the policy asks for it.
 */
export function memberPasswordContext(
  tenants: Pick<TenantRepository, 'findById'>,
  member: Pick<User, 'email' | 'tenantId'>,
): () => Promise<PasswordContext> {
  return async () => ({ email: member.email, tenantName: (await tenants.findById(member.tenantId))?.name });
}
