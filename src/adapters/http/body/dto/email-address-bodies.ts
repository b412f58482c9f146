import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_EMAIL_LENGTH } from '../../../../domain/email';
import { PASSWORD_MAX_LENGTH } from '../../../../domain/user';
import { Described } from './described';
import { VisibleText } from './visible-text';

/** The token's shape is the use-case's to judge: any other string is answered as an unknown token, with the same message. */
export class EmailLinkTokenBody {
  @IsString()
  @MaxLength(256)
  @Described('The 64 hexadecimal characters of the link\'s `token`.', {
    examples: ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
  })
  token!: string;
}

/** The new address follows signup's rules; the current password only has to be a string we would hash. */
export class ChangeEmailBody {
  @IsEmail()
  @MaxLength(MAX_EMAIL_LENGTH)
  @VisibleText()
  @Described({ examples: ['ada.lovelace@example.org'] })
  new_email!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  current_password!: string;
}
