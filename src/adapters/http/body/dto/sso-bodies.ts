import { IsBoolean, IsIn, IsObject, IsString, Length, Matches } from 'class-validator';
import { DEFAULT_INVITE_ROLE, INVITABLE_ROLES, type InvitableRole } from '../../../../domain/role';
import { SSO_DOMAIN_PATTERN } from '../../../../domain/sso';
import { Described } from './described';
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
  @IsObject()
  @Described('A value of the ID token\'s `groups` claim to the role it gives (admin, member or viewer); the highest matched wins. None unless given.', {
    examples: [{ Engineering: 'admin', Contractors: 'viewer' }],
  })
  group_roles?: object;
}

/** POST /sso/domains. */
export class SsoDomainBody {
  @IsString()
  @Length(1, 254)
  @Matches(SSO_DOMAIN_PATTERN, { message: 'domain must be a domain name, such as example.com' })
  @Described('A domain of the tenant\'s addresses. Stored in lower case.', { examples: ['acme.example'] })
  domain!: string;
}
