import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import { API_KEY_MAX_EXPIRY_DAYS, API_KEY_MIN_EXPIRY_DAYS, API_KEY_NAME_MAX_LENGTH } from '../../../../domain/api-key';
import { OptionalField } from './optional-field';
import { VisibleText } from './visible-text';

/** Both fields optional: no body at all still creates an unnamed key that never expires (docs/openapi.yaml, CreateApiKeyRequest). */
export class CreateApiKeyBody {
  @OptionalField()
  @IsString()
  @Length(1, API_KEY_NAME_MAX_LENGTH)
  @VisibleText()
  name?: string;

  @OptionalField()
  @IsInt()
  @Min(API_KEY_MIN_EXPIRY_DAYS)
  @Max(API_KEY_MAX_EXPIRY_DAYS)
  expires_in_days?: number;
}
