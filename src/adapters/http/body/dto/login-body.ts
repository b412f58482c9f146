import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_EMAIL_LENGTH } from '../../../../domain/email';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../domain/user';
import { Described } from './described';

export class LoginBody {
  @IsEmail()
  @MaxLength(MAX_EMAIL_LENGTH)
  @Described({ examples: ['ada@example.com'] })
  email!: string;

  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  @Described({ examples: ['correct horse battery'] })
  password!: string;
}
