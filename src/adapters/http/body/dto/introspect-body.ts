import { IsOptional, IsString, MaxLength } from 'class-validator';

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
}
