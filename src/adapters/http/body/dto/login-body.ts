import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_EMAIL_LENGTH } from '../../../../domain/email';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../domain/user';

export class LoginBody {
  @IsEmail()
  @MaxLength(MAX_EMAIL_LENGTH)
  email!: string;

  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;
}
