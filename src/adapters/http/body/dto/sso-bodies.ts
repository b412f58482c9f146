import { IsBoolean, IsEmail, IsIn, IsString, Length, Matches, MaxLength } from 'class-validator';
import { MAX_EMAIL_LENGTH } from '../../../../domain/email';
import { DEFAULT_INVITE_ROLE, INVITABLE_ROLES, type InvitableRole } from '../../../../domain/role';
import { SSO_DOMAIN_PATTERN } from '../../../../domain/sso';
import { Described } from './described';
import { IsGroupRoles } from './group-roles';
import { OptionalField } from './optional-field';

/** PUT /sso/connection: the whole connection, secret included, each time. */
export class SsoConnectionBody {
  @IsString()
  @Length(1, 2048)
  @Described('The provider\'s issuer: an https URL whose `/.well-known/openid-configuration` the service reads.', {
    examples: ['https://acme.okta.com'],
  })
  issuer!: string;

  @IsString()
  @Length(1, 1024)
  @Described('The client id the provider gave this service.', { examples: ['0oa1b2c3d4e5f6g7h8i9'] })
  client_id!: string;

  @IsString()
  @Length(1, 1024)
  @Described('The client secret the provider gave this service. Stored encrypted; never answered.', { examples: ['s3cr3t-from-the-provider'] })
  client_secret!: string;

  @OptionalField()
  @IsIn(INVITABLE_ROLES)
  @Described('The role of a member created at their first sign-in when no group maps to one.', { default: DEFAULT_INVITE_ROLE })
  default_role?: InvitableRole;

  @OptionalField()
  @IsBoolean()
  @Described('On: addresses of the tenant\'s verified domains cannot sign in with a password.', { default: false })
  sso_required?: boolean;

  @OptionalField()
  @IsGroupRoles()
  @Described('A value of the ID token\'s `groups` claim to the role it gives (admin, member or viewer); the highest matched wins. None unless given.', {
    examples: [{ Engineering: 'admin', Contractors: 'viewer' }],
  })
  group_roles?: Record<string, InvitableRole>;
}

/** POST /sso/domains. */
export class SsoDomainBody {
  @IsString()
  @Length(1, 254)
  @Matches(SSO_DOMAIN_PATTERN, { message: 'domain must be a domain name, such as example.com' })
  @Described('A domain of the tenant\'s addresses. Stored in lower case.', { examples: ['acme.example'] })
  domain!: string;
}

/** GET /sso/start: the person's address (its verified domain names the tenant), or the tenant's slug; one of the two. */
export class SsoStartQuery {
  @OptionalField()
  @IsEmail()
  @MaxLength(MAX_EMAIL_LENGTH)
  @Described('The address of the person signing in: the tenant that verified its domain is the one whose provider is asked.', {
    examples: ['ada@example.com'],
  })
  email?: string;

  @OptionalField()
  @IsString()
  @MaxLength(100)
  @Matches(/^[a-z0-9-]+$/, { message: 'tenant must be a tenant slug' })
  @Described("The tenant's slug, when the person chooses the organisation rather than giving an address.", { examples: ['acme-corp-3f9a1c'] })
  tenant?: string;
}

const PARAMETER = 2048;

/**
 * GET /sso/callback: the provider's answer (OpenID Connect Core 3.1.2.5 and 3.1.2.6, RFC 9207's
 * `iss`, and the `session_state` some providers add). Judged by the use-case, not here: a malformed
 * answer is a refused sign-in sent back to the console, like any other.
 */
export class SsoCallbackQuery {
  @OptionalField() @IsString() @MaxLength(PARAMETER)
  @Described('The authorization code.')
  code?: string;

  @OptionalField() @IsString() @MaxLength(PARAMETER)
  @Described('The state the sign-in was started with.')
  state?: string;

  @OptionalField() @IsString() @MaxLength(PARAMETER)
  @Described("The provider's issuer identifier (RFC 9207).")
  iss?: string;

  @OptionalField() @IsString() @MaxLength(PARAMETER)
  @Described("The provider's error code, when it did not sign the person in.")
  error?: string;

  @OptionalField() @IsString() @MaxLength(PARAMETER)
  @Described("The provider's description of the error.")
  error_description?: string;

  @OptionalField() @IsString() @MaxLength(PARAMETER)
  @Described("A page about the provider's error.")
  error_uri?: string;

  @OptionalField() @IsString() @MaxLength(PARAMETER)
  @Described("The provider's session state (OpenID Connect Session Management); ignored.")
  session_state?: string;
}

export class SsoExchangeBody {
  @IsString()
  @MaxLength(256)
  @Described('The one-time `code` the callback gave the console (64 hexadecimal characters).', {
    examples: ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
  })
  code!: string;
}
