import { IsEmail, IsString, Length, MaxLength, MinLength } from 'class-validator';
import { MAX_EMAIL_LENGTH } from '../../../../domain/email';
import { TENANT_NAME_MAX_LENGTH } from '../../../../domain/tenant';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../domain/user';
import { OptionalField } from './optional-field';
import { VisibleText } from './visible-text';

/** Bounds the work a forged token can cause; the use-case rejects anything not shaped like ours. */
const INVITE_TOKEN_MAX_LENGTH = 256;

/**
 * "At least one of tenant_name and invite_token" is left to the Signup use-case, whose
 * TenantNameRequired carries the contract's exact message.
 */
export class SignupBody {
  @IsEmail()
  @MaxLength(MAX_EMAIL_LENGTH)
  @VisibleText()
  email!: string;

  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;

  @OptionalField()
  @IsString()
  @Length(1, TENANT_NAME_MAX_LENGTH)
  @VisibleText()
  tenant_name?: string;

  @OptionalField()
  @IsString()
  @MaxLength(INVITE_TOKEN_MAX_LENGTH)
  invite_token?: string;
}
