import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { Described } from './described';
import { OptionalField } from './optional-field';

/** Longer than any credential this service issues, short enough that no body is a burden to check. */
export const INTROSPECT_CREDENTIAL_MAX_LENGTH = 4096;

/** Exactly one of the two (checked by the route, which names both fields in its answer). */
@Described('Exactly one of the two fields.', { examples: [{ api_key: 'pcls_0123456789abcdef0123456789abcdef', min_position: 42 }] })
export class IntrospectBody {
  @OptionalField()
  @IsString()
  @MaxLength(INTROSPECT_CREDENTIAL_MAX_LENGTH)
  @Described('A bearer token as the caller sent it after `Bearer `.')
  token?: string;

  @OptionalField()
  @IsString()
  @MaxLength(INTROSPECT_CREDENTIAL_MAX_LENGTH)
  @Described('An API key as the caller sent it in `x-api-key`.')
  api_key?: string;

  /**
   * The highest change position the verifier has heard of: the instance reads the change log up to
   * it before answering, so the answer is never older than what the verifier already knows.
   */
  @OptionalField()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  @Described(
    'The highest change position the verifier has heard on the change feed: the instance applies every change up to it '
    + 'before answering.',
  )
  min_position?: number;
}
