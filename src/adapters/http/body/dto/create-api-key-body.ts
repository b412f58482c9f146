import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import { API_KEY_MAX_EXPIRY_DAYS, API_KEY_MIN_EXPIRY_DAYS, API_KEY_NAME_MAX_LENGTH } from '../../../../domain/api-key';
import { Described } from './described';
import { OptionalField } from './optional-field';
import { VisibleText } from './visible-text';

/** Both fields optional: no body at all still creates an unnamed key that never expires (the API reference's CreateApiKeyRequest). */
export class CreateApiKeyBody {
  @OptionalField()
  @IsString()
  @Length(1, API_KEY_NAME_MAX_LENGTH)
  @VisibleText()
  @Described(
    'A label for people, shown in the list. Without it the key has no name. Stored NFC-normalised, and its length '
    + 'counted in that form; control characters (a line break too), invisible formatting characters and combining marks '
    + 'without a base character are refused (400 `name must not contain ...`), as in tenant names.',
    { examples: ['ci-deploy'] },
  )
  name?: string;

  @OptionalField()
  @IsInt()
  @Min(API_KEY_MIN_EXPIRY_DAYS)
  @Max(API_KEY_MAX_EXPIRY_DAYS)
  @Described('Whole days until the key stops working; without it the key never expires.', { examples: [30] })
  expires_in_days?: number;
}
