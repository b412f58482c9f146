import { IsEmail, IsString, Length, MaxLength, MinLength } from 'class-validator';
import { MAX_EMAIL_LENGTH } from '../../../../domain/email';
import { TENANT_NAME_MAX_LENGTH } from '../../../../domain/tenant';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../domain/user';
import { Described } from './described';
import { OptionalField } from './optional-field';
import { VisibleText } from './visible-text';

/** Bounds the work a forged token can cause; the use-case rejects anything not shaped like ours. */
const INVITE_TOKEN_MAX_LENGTH = 256;

/**
 * "At least one of tenant_name and invite_token" is left to the Signup use-case, whose
 * TenantNameRequired carries the contract's exact message.
 */
@Described('At least one of `tenant_name` and `invite_token`; with both, the invite decides.')
export class SignupBody {
  @IsEmail()
  @MaxLength(MAX_EMAIL_LENGTH)
  @VisibleText()
  @Described({ examples: ['ada@example.com'] })
  email!: string;

  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  @Described(
    'Under `PASSWORD_POLICY=strict`, also refused when common (400 `Password is too common`) or when it contains '
    + 'the address or the organisation name (400 `Password must not contain ...`).',
    { examples: ['correct horse battery'] },
  )
  password!: string;

  @OptionalField()
  @IsString()
  @Length(1, TENANT_NAME_MAX_LENGTH)
  @VisibleText()
  @Described(
    'Stored NFC-normalised, and its length counted in that form. Control characters, invisible formatting characters '
    + '(zero-width, bidirectional overrides) and combining marks without a base character are refused '
    + '(400 `tenant_name must not contain ...`).',
    { examples: ['Analytical Engines'] },
  )
  tenant_name?: string;

  @OptionalField()
  @IsString()
  @MaxLength(INVITE_TOKEN_MAX_LENGTH)
  @Described('The token from `POST /api/v1/auth/invite` (64 lowercase hex characters).')
  invite_token?: string;
}
