import { ValidateBy, type ValidationOptions } from 'class-validator';
import { INVITABLE_ROLES } from '../../../../domain/role';
import { groupRolesOf, SSO_GROUP_NAME_MAX, SSO_GROUP_ROLES_MAX } from '../../../../domain/sso';

/** The constraint the API reference states: an object of group names to invitable roles, this many at most. */
export interface GroupRolesConstraint {
  readonly roles: readonly string[];
  readonly maxEntries: number;
  readonly maxNameLength: number;
}

/**
 * A group-to-role mapping (domain/sso.ts, groupRolesOf): the domain's rule at the boundary, so the
 * 400 comes before any other work and the API reference can state the values a group may map to.
 */
export function IsGroupRoles(options?: ValidationOptions): PropertyDecorator {
  const constraint: GroupRolesConstraint = { roles: INVITABLE_ROLES, maxEntries: SSO_GROUP_ROLES_MAX, maxNameLength: SSO_GROUP_NAME_MAX };
  return ValidateBy({
    name: 'isGroupRoles',
    constraints: [constraint],
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'object' || value === null) return false;
        try {
          groupRolesOf(value);
          return true;
        } catch {
          return false;
        }
      },
      defaultMessage: (args) => {
        const property = args?.property ?? 'value';
        const value: unknown = args?.value;
        return typeof value !== 'object' || value === null || Array.isArray(value)
          ? `${property} must be an object`
          : `${property} must map each group name to admin, member or viewer`;
      },
    },
  }, options);
}
