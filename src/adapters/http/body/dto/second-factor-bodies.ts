import { IsIn, IsObject, IsString, Matches, MaxLength } from 'class-validator';
import { MFA_POLICIES, type MfaPolicy } from '../../../../domain/second-factor';
import { Described } from './described';
import { OptionalField } from './optional-field';

/** What a recovery code may be typed as: its 24 characters, in any case, with dashes or spaces between groups. */
const RECOVERY_CODE_MAX_LENGTH = 64;

export class ConfirmAuthenticatorAppBody {
  @IsString()
  @Matches(/^[0-9]{6}$/, { message: 'code must be the six digits the app shows' })
  @Described('The six digits the authenticator app shows now for the new secret.', { examples: ['492039'] })
  code!: string;
}

/**
 * The second step of a sign-in: the mfa_token from the first, and one proof. Which proofs are
 * accepted is the use-case's to judge (one, of a kind the member has); a body with none or several
 * is answered 401 `Invalid second factor` like a wrong one.
 */
export class LoginSecondFactorBody {
  @IsString()
  @MaxLength(256)
  @Described('The `mfa_token` of the 401 `Second factor required` answer to POST /login.', {
    examples: ['3f1c9a0e5b7d4c2a8e6f1b3d5a7c9e0f2b4d6a8c0e2f4b6d8a0c2e4f6b8d0a2c'],
  })
  mfa_token!: string;

  @OptionalField()
  @IsString()
  @MaxLength(16)
  @Described('The six digits the authenticator app shows.', { examples: ['492039'] })
  code?: string;

  @OptionalField()
  @IsString()
  @MaxLength(RECOVERY_CODE_MAX_LENGTH)
  @Described('One of the recovery codes, used once.', { examples: ['abcd-efgh-ijkl-mnop-qrst-uvwx'] })
  recovery_code?: string;

  @OptionalField()
  @IsObject()
  @Described('A passkey assertion answering the challenge of this sign-in.')
  passkey?: object;
}

/** POST /login/mfa/passkey/options: the sign-in attempt whose passkey challenge is wanted. */
export class SecondFactorPasskeyOptionsBody {
  @IsString()
  @MaxLength(256)
  @Described('The `mfa_token` of the 401 `Second factor required` answer to POST /login.', {
    examples: ['3f1c9a0e5b7d4c2a8e6f1b3d5a7c9e0f2b4d6a8c0e2f4b6d8a0c2e4f6b8d0a2c'],
  })
  mfa_token!: string;
}

/** PATCH /tenant/security. */
export class TenantSecurityBody {
  @IsIn(MFA_POLICIES)
  @Described('`required`: every member signs in with a second factor; `optional`: each member chooses.', { examples: ['required'] })
  mfa!: MfaPolicy;
}
