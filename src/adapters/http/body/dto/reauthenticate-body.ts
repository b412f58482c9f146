import { IsString, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH } from '../../../../domain/user';
import { Described } from './described';

/** The caller's current password: only a string we would hash, as a password change's current one. */
export class ReauthenticateBody {
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  @Described({ examples: ['correct horse battery'] })
  password!: string;
}
