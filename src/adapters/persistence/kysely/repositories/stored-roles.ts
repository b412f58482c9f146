import { INVITABLE_ROLES, type InvitableRole, isRole, type Role } from '../../../../domain/role';

// The tables' check constraints make these failures unreachable; the checks keep the mapped types
// honest without a blind cast, and name the bad value if a row was ever edited by hand.

export function storedRole(value: string): Role {
  if (!isRole(value)) throw new Error(`Stored role "${value}" is not a known role`);
  return value;
}

export function storedInvitableRole(value: string): InvitableRole {
  const role = storedRole(value);
  if (!(INVITABLE_ROLES as readonly Role[]).includes(role)) throw new Error(`Stored invite role "${value}" cannot be invited`);
  return role as InvitableRole;
}
