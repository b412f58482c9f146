import { IsEmail, IsIn, MaxLength } from 'class-validator';
import { MAX_EMAIL_LENGTH } from '../../../../domain/email';
import { DEFAULT_INVITE_ROLE, INVITABLE_ROLES, type InvitableRole } from '../../../../domain/role';
import { Described } from './described';
import { OptionalField } from './optional-field';
import { VisibleText } from './visible-text';

export class InviteBody {
  @IsEmail()
  @MaxLength(MAX_EMAIL_LENGTH)
  @VisibleText()
  @Described({ examples: ['ada@example.com'] })
  email!: string;

  @OptionalField()
  @IsIn(INVITABLE_ROLES)
  @Described('Ownership is only ever given at tenant creation.', { default: DEFAULT_INVITE_ROLE })
  role?: InvitableRole;
}
