import { IsIn } from 'class-validator';
import { ROLES, type Role } from '../../../../domain/role';

export class ChangeRoleBody {
  @IsIn(ROLES)
  role!: Role;
}
