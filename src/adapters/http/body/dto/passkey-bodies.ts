import { IsObject, IsString, Length, Matches } from 'class-validator';
import { PASSKEY_NAME_MAX } from '../../../../domain/passkey';
import { Described } from './described';
import { VisibleText } from './visible-text';

const RESPONSE_WORDS = 'The JSON of the PublicKeyCredential the browser returned (as @simplewebauthn/browser gives it: '
  + '`id`, `rawId`, `type`, `response` with base64url fields). Checked by the service; anything that does not verify is refused.';

/** POST /mfa/passkeys: the authenticator's answer to the creation options, and a name for people. */
export class RegisterPasskeyBody {
  @IsString()
  @Length(1, PASSKEY_NAME_MAX)
  @VisibleText()
  @Described('A label for people, shown in the list and in the notices. Stored NFC-normalised.', { examples: ['Work laptop'] })
  name!: string;

  @IsObject()
  @Described(RESPONSE_WORDS)
  response!: Record<string, unknown>;
}

/** PATCH /mfa/passkeys/:id. */
export class RenamePasskeyBody {
  @IsString()
  @Length(1, PASSKEY_NAME_MAX)
  @VisibleText()
  @Described('The new label.', { examples: ['Phone'] })
  name!: string;
}

/** POST /login/passkey: the ceremony's handle from the options, and the assertion. */
export class PasskeySignInBody {
  @IsString()
  @Matches(/^[0-9a-f]{64}$/, { message: 'ceremony must be the value the options answered' })
  @Described('The `ceremony` the options call answered.', { examples: ['a1'.repeat(32)] })
  ceremony!: string;

  @IsObject()
  @Described(RESPONSE_WORDS)
  response!: Record<string, unknown>;
}
