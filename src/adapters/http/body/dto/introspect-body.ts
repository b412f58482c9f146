import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { OptionalField } from './optional-field';

/** Longer than any credential this service issues, short enough that no body is a burden to check. */
export const INTROSPECT_CREDENTIAL_MAX_LENGTH = 4096;

/** Exactly one of the two (checked by the route, which names both fields in its answer). */
export class IntrospectBody {
  @IsOptional()
  @IsString()
  @MaxLength(INTROSPECT_CREDENTIAL_MAX_LENGTH)
  token?: string;

  @IsOptional()
  @IsString()
  @MaxLength(INTROSPECT_CREDENTIAL_MAX_LENGTH)
  api_key?: string;

  /**
   * The highest change position the verifier has heard of: the instance reads the change log up to
   * it before answering, so the answer is never older than what the verifier already knows.
   */
  @OptionalField()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  min_position?: number;
}
