import { IsEmail, IsIn, MaxLength } from 'class-validator';
import { MAX_EMAIL_LENGTH } from '../../../../domain/email';
import { INVITABLE_ROLES, type InvitableRole } from '../../../../domain/role';
import { OptionalField } from './optional-field';
import { VisibleText } from './visible-text';

export class InviteBody {
  @IsEmail()
  @MaxLength(MAX_EMAIL_LENGTH)
  @VisibleText()
  email!: string;

  @OptionalField()
  @IsIn(INVITABLE_ROLES)
  role?: InvitableRole;
}
