import type { ErrorCodesOf } from '../../../domain/errors';
import type * as identityErrors from '../../../domain/errors';
import type { ErrorAnswer } from './error-mapper';

/** The code of every DomainError that src/domain/errors.ts exports. */
export type IdentityErrorCode = ErrorCodesOf<typeof identityErrors>;

/**
 * Identity's errors, one record each: the contract's status for every domain rule (the message is
 * the error's own, docs/contract.md's "Errors"), and how an authenticated caller's refusal is
 * recorded. Keyed by the code union, so an error class added to errors.ts without a record here does
 * not compile. Product modules declare theirs the same way (PortcullisModule.errors).
 */
export const IDENTITY_ERRORS: Readonly<Record<IdentityErrorCode, ErrorAnswer>> = {
  EMAIL_ALREADY_REGISTERED: { status: 409 },
  INVALID_INVITE_TOKEN: { status: 400 },
  INVITE_ALREADY_ACCEPTED: { status: 400 },
  INVITE_EXPIRED: { status: 400 },
  TENANT_NAME_REQUIRED: { status: 400 },
  INVALID_CREDENTIALS: { status: 401 },
  INVALID_API_KEY_FORMAT: { status: 401 },
  INVALID_API_KEY: { status: 401 },
  INVALID_TOKEN: { status: 401 },
  MISSING_AUTHENTICATION: { status: 401 },
  INSUFFICIENT_ROLE: { status: 403 }, // recorded from the error itself, with the role it required
  INVITE_NOT_FOUND: { status: 404, notInTenant: 'invite' },
  INVALID_AUDIT_CURSOR: { status: 400 },
  TOO_MANY_FAILED_LOGINS: { status: 429 },
  API_KEY_NOT_FOUND: { status: 404, notInTenant: 'api_key' },
  MEMBER_NOT_FOUND: { status: 404, notInTenant: 'member' },
  ROLE_ABOVE_OWN: { status: 403, roleRule: true },
  OWNER_ROLE_REQUIRED: { status: 403, roleRule: true },
  OWNER_KEY_REQUIRES_OWNER: { status: 403, roleRule: true },
  CURRENT_PASSWORD_INCORRECT: { status: 403 },
  LAST_OWNER: { status: 409 },
  INVALID_SCIM_TOKEN: { status: 401 },
  SCIM_TOKEN_NOT_FOUND: { status: 404 },
  LAST_ACTIVE_OWNER: { status: 409 },
  SCIM_USER_NAME_IMMUTABLE: { status: 400 },
  SCIM_ADDRESS_OUTSIDE_DOMAINS: { status: 400 },
  INVALID_SERVICE_KEY: { status: 401 },
  MAIL_NOT_CONFIGURED: { status: 503 },
  INVALID_RESET_TOKEN: { status: 400 },
  INVALID_VERIFICATION_TOKEN: { status: 400 },
  INVALID_CONFIRMATION_TOKEN: { status: 400 },
  PASSWORD_TOO_COMMON: { status: 400 },
  PASSWORD_CONTAINS_EMAIL: { status: 400 },
  PASSWORD_CONTAINS_TENANT_NAME: { status: 400 },
  SIGN_IN_REQUIRED: { status: 403 },
  EMAIL_UNCHANGED: { status: 400 },
  AUTHENTICATION_UNAVAILABLE: { status: 503 },
  SESSION_NOT_FOUND: { status: 404 },
  NO_SESSION_TO_END: { status: 400 },
  NO_SESSION_TO_RENEW: { status: 400 },
  RECENT_AUTHENTICATION_REQUIRED: { status: 403 },
  INVALID_PASSKEY: { status: 401 },
  INVALID_PASSKEY_REGISTRATION: { status: 400 },
  PASSKEY_ALREADY_REGISTERED: { status: 409 },
  PASSKEY_NOT_FOUND: { status: 404 },
  SECOND_FACTOR_REQUIRED: { status: 401 },
  INVALID_SECOND_FACTOR: { status: 401 },
  AUTHENTICATOR_APP_ALREADY_ENROLLED: { status: 409 },
  INVALID_ENROLLMENT_CODE: { status: 400 },
  AUTHENTICATOR_APP_NOT_ENROLLED: { status: 404 },
  SECOND_FACTOR_NOT_ENROLLED: { status: 409 },
  SECOND_FACTORS_NOT_CONFIGURED: { status: 503 },
  SECOND_FACTOR_ENROLLMENT_REQUIRED: { status: 403 },
  SECOND_FACTOR_SESSION_REQUIRED: { status: 403 },
  SSO_DOMAIN_TAKEN: { status: 409 },
  SSO_DOMAIN_NOT_FOUND: { status: 404 },
  SSO_VERIFICATION_RECORD_NOT_FOUND: { status: 400 },
  SSO_CONNECTION_NOT_FOUND: { status: 404 },
  SSO_DISCOVERY_FAILED: { status: 400 },
  SSO_REQUIRED_FOR_ADDRESS: { status: 403 },
  SSO_ANSWER_REFUSED: { status: 400 },
  SSO_NOT_AVAILABLE: { status: 404 },
  INVALID_SSO_CODE: { status: 401 },
  SSO_SIGN_IN_REFUSED: { status: 403 },
  SSO_GROUP_ROLES_INVALID: { status: 400 },
  SSO_ISSUER_REFUSED: { status: 400 },
  DNS_UNAVAILABLE: { status: 503 },
  SSO_DOMAIN_INVALID: { status: 400 },
};
