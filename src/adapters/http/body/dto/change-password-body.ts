import { IsString, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../domain/user';
import { Described } from './described';

/** The new password follows signup's rules; the current one only has to be a string we would hash. */
export class ChangePasswordBody {
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  current_password!: string;

  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  @Described(
    'Under `PASSWORD_POLICY=strict`, also refused when common (400 `Password is too common`) or when it contains '
    + 'the address or the organisation name (400 `Password must not contain ...`).',
    { examples: ['correct horse battery'] },
  )
  new_password!: string;
}
