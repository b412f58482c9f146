import { IsEmail, IsObject, IsString, MaxLength, MinLength } from 'class-validator';
import { OptionalField } from './optional-field';
import { MAX_EMAIL_LENGTH } from '../../../../domain/email';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../domain/user';
import { Described } from './described';

export class ForgotPasswordBody {
  @IsEmail()
  @MaxLength(MAX_EMAIL_LENGTH)
  @Described({ examples: ['ada@example.com'] })
  email!: string;
}

/** The token's shape is the use-case's to judge: any other string is answered as an unknown token, with the same message. */
export class ResetPasswordBody {
  @IsString()
  @MaxLength(256)
  @Described('The 64 hexadecimal characters of the link\'s `token`.', {
    examples: ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
  })
  token!: string;

  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  @Described({ examples: ['correct horse battery'] })
  password!: string;

  @OptionalField()
  @IsString()
  @MaxLength(16)
  @Described('For a member with an authenticator app: the six digits it shows.', { examples: ['492039'] })
  code?: string;

  @OptionalField()
  @IsString()
  @MaxLength(64)
  @Described('For a member with recovery codes: one of them, used once.', { examples: ['abcd-efgh-ijkl-mnop-qrst-uvwx'] })
  recovery_code?: string;

  @OptionalField()
  @IsObject()
  @Described('For a member with a passkey: an assertion answering the challenge of POST /password/reset/passkey/options for this token.')
  passkey?: object;
}

/** POST /password/reset/passkey/options: the link's token, only looked at. */
export class ResetPasskeyOptionsBody {
  @IsString()
  @MaxLength(256)
  @Described('The 64 hexadecimal characters of the link\'s `token`.', {
    examples: ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
  })
  token!: string;
}
