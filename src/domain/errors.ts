/**
 * Every broken rule has its own error class with a stable code. The domain knows nothing of HTTP:
 * the HTTP adapter's error mapper turns codes into statuses and the exact messages of the contract.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
}

/**
 * The codes of every DomainError class a module of errors exports, as a union of literals. A map
 * keyed by it (`Record<ErrorCodesOf<typeof errors>, ...>`) must name every code, so a new error
 * class without an HTTP status (or without a refusal reason) is a type error, not a silent 500.
 */
export type ErrorCodesOf<M> = {
  [K in keyof M]: M[K] extends abstract new (...args: never[]) => infer E
    ? E extends DomainError ? (string extends E['code'] ? never : E['code']) : never
    : never;
}[keyof M];

export class EmailAlreadyRegistered extends DomainError {
  readonly code = 'EMAIL_ALREADY_REGISTERED';
  constructor() { super('Email already registered'); }
}

export class InvalidInviteToken extends DomainError {
  readonly code = 'INVALID_INVITE_TOKEN';
  constructor() { super('Invalid invite token'); }
}

export class InviteAlreadyAccepted extends DomainError {
  readonly code = 'INVITE_ALREADY_ACCEPTED';
  constructor() { super('Invite already accepted'); }
}

export class InviteExpired extends DomainError {
  readonly code = 'INVITE_EXPIRED';
  constructor() { super('Invite expired'); }
}

export class TenantNameRequired extends DomainError {
  readonly code = 'TENANT_NAME_REQUIRED';
  constructor() { super('tenant_name is required for new signups'); }
}

export class InvalidCredentials extends DomainError {
  readonly code = 'INVALID_CREDENTIALS';
  constructor() { super('Invalid credentials'); }
}

export class InvalidApiKeyFormat extends DomainError {
  readonly code = 'INVALID_API_KEY_FORMAT';
  constructor() { super('Invalid API key format'); }
}

export class InvalidApiKey extends DomainError {
  readonly code = 'INVALID_API_KEY';
  constructor() { super('Invalid API key'); }
}

export class InvalidToken extends DomainError {
  readonly code = 'INVALID_TOKEN';
  constructor() { super('Invalid or expired token'); }
}

export class MissingAuthentication extends DomainError {
  readonly code = 'MISSING_AUTHENTICATION';
  constructor() { super('Missing authentication'); }
}

export class InsufficientRole extends DomainError {
  readonly code = 'INSUFFICIENT_ROLE';
  constructor(readonly minimumRole: string) { super(`Requires ${minimumRole} role or higher`); }
}

export class InviteNotFound extends DomainError {
  readonly code = 'INVITE_NOT_FOUND';
  constructor() { super('Invite not found'); }
}

/**
 * Too many failed logins for one account in the current window. The wording is the rate limits'
 * own, so a throttled account looks like any other 429 and a client needs only one back-off rule.
 */
export class TooManyFailedLogins extends DomainError {
  readonly code = 'TOO_MANY_FAILED_LOGINS';
  constructor(readonly retryAfterSeconds: number) { super(`Too many requests, retry after ${retryAfterSeconds} seconds`); }
}

export class ApiKeyNotFound extends DomainError {
  readonly code = 'API_KEY_NOT_FOUND';
  constructor() { super('API key not found'); }
}

export class MemberNotFound extends DomainError {
  readonly code = 'MEMBER_NOT_FOUND';
  constructor() { super('Member not found'); }
}

/** Nobody grants a role above their own. */
export class RoleAboveOwn extends DomainError {
  readonly code = 'ROLE_ABOVE_OWN';
  constructor() { super('Cannot grant a role above your own'); }
}

/** Only an owner changes or removes an owner, or grants owner. */
export class OwnerRoleRequired extends DomainError {
  readonly code = 'OWNER_ROLE_REQUIRED';
  constructor() { super('Only an owner can change, remove or grant the owner role'); }
}

/** A key acts with its creator's role: a key of an owner is an owner's credential, which only an owner revokes. */
export class OwnerKeyRequiresOwner extends DomainError {
  readonly code = 'OWNER_KEY_REQUIRES_OWNER';
  constructor() { super('Only an owner can revoke an API key created by an owner'); }
}

/** A tenant always keeps at least one owner. */
export class LastOwner extends DomainError {
  readonly code = 'LAST_OWNER';
  constructor() { super('The last owner cannot be demoted or removed'); }
}

/** A password change must prove the current password, so a stolen token alone cannot take the account. */
export class CurrentPasswordIncorrect extends DomainError {
  readonly code = 'CURRENT_PASSWORD_INCORRECT';
  constructor() { super('Current password is incorrect'); }
}

export class InvalidAuditCursor extends DomainError {
  readonly code = 'INVALID_AUDIT_CURSOR';
  constructor() { super('Invalid cursor'); }
}

/** The calling service sent no service key, or one that is unknown, revoked or malformed. */
export class InvalidServiceKey extends DomainError {
  readonly code = 'INVALID_SERVICE_KEY';
  constructor() { super('Invalid or missing service key'); }
}

/** A route whose whole point is a message, on an instance with no way to send one: the same for every address. */
export class MailNotConfigured extends DomainError {
  readonly code = 'MAIL_NOT_CONFIGURED';
  constructor() { super('E-mail delivery is not configured'); }
}

/** Unknown, used, voided or expired: one message for all, so a token's state is not told. */
export class InvalidResetToken extends DomainError {
  readonly code = 'INVALID_RESET_TOKEN';
  constructor() { super('Invalid or expired reset token'); }
}

export class InvalidVerificationToken extends DomainError {
  readonly code = 'INVALID_VERIFICATION_TOKEN';
  constructor() { super('Invalid or expired verification token'); }
}

export class InvalidConfirmationToken extends DomainError {
  readonly code = 'INVALID_CONFIRMATION_TOKEN';
  constructor() { super('Invalid or expired confirmation token'); }
}

/**
 * The strict password policy's refusals (password-policy.ts), one class per reason, each saying
 * what to change. The contract's length rule is the boundary's, with its own wording.
 */
export class PasswordTooCommon extends DomainError {
  readonly code = 'PASSWORD_TOO_COMMON';
  constructor() { super('Password is too common'); }
}

export class PasswordContainsEmail extends DomainError {
  readonly code = 'PASSWORD_CONTAINS_EMAIL';
  constructor() { super('Password must not contain your email address'); }
}

export class PasswordContainsTenantName extends DomainError {
  readonly code = 'PASSWORD_CONTAINS_TENANT_NAME';
  constructor() { super('Password must not contain the organisation name'); }
}

/** Who a person is (their address) changes only by their own sign-in: a key acts for them, it is not them. */
export class SignInRequired extends DomainError {
  readonly code = 'SIGN_IN_REQUIRED';
  constructor() { super('Changing the e-mail address requires a bearer token from signing in, not an API key'); }
}

export class EmailUnchanged extends DomainError {
  readonly code = 'EMAIL_UNCHANGED';
  constructor() { super('new_email is already the address of this account'); }
}

/**
 * The instance could not confirm, in time, that it has applied every credential change committed
 * before the request (its database did not answer): it refuses rather than answer from memory
 * that may be stale. Retrying is right; the client is told when.
 */
export class AuthenticationUnavailable extends DomainError {
  readonly code = 'AUTHENTICATION_UNAVAILABLE';
  readonly retryAfterSeconds = 1;
  constructor(cause?: unknown) {
    super('Authentication unavailable', { cause });
  }
}

/** Not one of the caller's own live sessions (another member's, another tenant's, ended, or no such id): one answer for all. */
export class SessionNotFound extends DomainError {
  readonly code = 'SESSION_NOT_FOUND';
  constructor() { super('Session not found'); }
}

/** Logout by an API key, or by a token issued without a session: there is no session to end. */
export class NoSessionToEnd extends DomainError {
  readonly code = 'NO_SESSION_TO_END';
  constructor() { super('No session to end'); }
}

/** Reauthentication renews a session: an API key or a token without one has none. */
export class NoSessionToRenew extends DomainError {
  readonly code = 'NO_SESSION_TO_RENEW';
  constructor() { super('No session to renew'); }
}

/** A route that changes how someone signs in wants a session whose password was proven recently. */
export class RecentAuthenticationRequired extends DomainError {
  readonly code = 'RECENT_AUTHENTICATION_REQUIRED';
  constructor() { super('Recent authentication required'); }
}

/** Any failed passwordless sign-in with a passkey: one answer, so a refusal tells nothing of why. */
export class InvalidPasskey extends DomainError {
  readonly code = 'INVALID_PASSKEY';
  constructor() { super('Invalid passkey'); }
}

/** A registration response that does not verify against the challenge this member was given. */
export class InvalidPasskeyRegistration extends DomainError {
  readonly code = 'INVALID_PASSKEY_REGISTRATION';
  constructor() { super('Invalid passkey registration'); }
}

/** The credential is registered already (to this member or another). */
export class PasskeyAlreadyRegistered extends DomainError {
  readonly code = 'PASSKEY_ALREADY_REGISTERED';
  constructor() { super('Passkey already registered'); }
}

/** The caller has no passkey with that id. */
export class PasskeyNotFound extends DomainError {
  readonly code = 'PASSKEY_NOT_FOUND';
  constructor() { super('Passkey not found'); }
}

/**
 * The password was right, but the member has a second factor: the sign-in (or the reset) goes on
 * only with a proof of one. `methods` are the kinds the member has; a sign-in also gets the
 * mfa_token that names it for the second step. Both are part of the answer's body (`answerFields`).
 */
export class SecondFactorRequired extends DomainError {
  readonly code = 'SECOND_FACTOR_REQUIRED';
  readonly answerFields: Readonly<Record<string, unknown>>;
  constructor(methods: readonly string[], mfaToken?: string) {
    super('Second factor required');
    this.answerFields = mfaToken === undefined ? { methods: [...methods] } : { mfa_token: mfaToken, methods: [...methods] };
  }
}

/** The second step of a sign-in failed: an unknown, used or expired mfa_token, or a wrong, used or missing proof. One answer for all. */
export class InvalidSecondFactor extends DomainError {
  readonly code = 'INVALID_SECOND_FACTOR';
  constructor() { super('Invalid second factor'); }
}

/** Enrolling an authenticator app while one is confirmed: it is removed first. */
export class AuthenticatorAppAlreadyEnrolled extends DomainError {
  readonly code = 'AUTHENTICATOR_APP_ALREADY_ENROLLED';
  constructor() { super('An authenticator app is already enrolled'); }
}

/** Confirming with no enrollment pending, or with a code the pending secret does not give. */
export class InvalidEnrollmentCode extends DomainError {
  readonly code = 'INVALID_ENROLLMENT_CODE';
  constructor() { super('Invalid code, or no authenticator app is pending'); }
}

/** Removing an authenticator app the member does not have. */
export class AuthenticatorAppNotEnrolled extends DomainError {
  readonly code = 'AUTHENTICATOR_APP_NOT_ENROLLED';
  constructor() { super('No authenticator app is enrolled'); }
}

/** Recovery codes back up a factor: a member with none gets none. */
export class SecondFactorNotEnrolled extends DomainError {
  readonly code = 'SECOND_FACTOR_NOT_ENROLLED';
  constructor() { super('No second factor is enrolled'); }
}

/** An instance without MFA_ENCRYPTION_KEY (production) can neither seal nor open a factor's secret: it refuses rather than store one in the clear. */
export class SecondFactorsNotConfigured extends DomainError {
  readonly code = 'SECOND_FACTORS_NOT_CONFIGURED';
  constructor() { super('Second factors are not configured'); }
}

/**
 * A sign-in under a tenant's `required` policy that used no second factor opens only the routes
 * that let the member enroll one (a route declares `enrollment`); every other route answers this.
 */
export class SecondFactorEnrollmentRequired extends DomainError {
  readonly code = 'SECOND_FACTOR_ENROLLMENT_REQUIRED';
  constructor() { super('Second factor enrollment required'); }
}

/** Under a `required` policy, creating an API key (or requiring factors) needs a session that used a second factor. */
export class SecondFactorSessionRequired extends DomainError {
  readonly code = 'SECOND_FACTOR_SESSION_REQUIRED';
  constructor() { super('A session signed in with a second factor is required'); }
}

/** A domain another tenant has verified: a domain belongs to at most one tenant. */
export class SsoDomainTaken extends DomainError {
  readonly code = 'SSO_DOMAIN_TAKEN';
  constructor() { super('Domain is verified by another tenant'); }
}

/** The tenant has no domain claim of that name. */
export class SsoDomainNotFound extends DomainError {
  readonly code = 'SSO_DOMAIN_NOT_FOUND';
  constructor() { super('Domain not found'); }
}

/** The domain's TXT records do not hold the value the claim asked for (or none could be read). */
export class SsoVerificationRecordNotFound extends DomainError {
  readonly code = 'SSO_VERIFICATION_RECORD_NOT_FOUND';
  constructor() { super('Verification record not found'); }
}

/** The tenant has no single sign-on connection. */
export class SsoConnectionNotFound extends DomainError {
  readonly code = 'SSO_CONNECTION_NOT_FOUND';
  constructor() { super('No single sign-on connection'); }
}

/** The issuer's discovery document could not be fetched, or did not describe that issuer. */
export class SsoDiscoveryFailed extends DomainError {
  readonly code = 'SSO_DISCOVERY_FAILED';
  constructor() { super("Could not read the provider's discovery document"); }
}

/** The provider's answer to a sign-in failed a check (state, code, or the ID token's signature or claims). */
export class SsoAnswerRefused extends DomainError {
  readonly code = 'SSO_ANSWER_REFUSED';
  constructor(readonly reason: string) { super('The identity provider\'s answer could not be verified'); }
}

/** A signup with an address of a domain whose tenant requires single sign-on, outside that tenant. */
export class SsoRequiredForAddress extends DomainError {
  readonly code = 'SSO_REQUIRED_FOR_ADDRESS';
  constructor() { super("This address signs in through its organisation's single sign-on"); }
}

/** No verified domain, tenant or connection leads to a provider from what the person gave. */
export class SsoNotAvailable extends DomainError {
  readonly code = 'SSO_NOT_AVAILABLE';
  constructor() { super('No single sign-on for this address'); }
}

/** The one-time code of a single sign-on is unknown, used, or expired. */
export class InvalidSsoCode extends DomainError {
  readonly code = 'INVALID_SSO_CODE';
  constructor() { super('Invalid or expired code'); }
}

/**
 * A sign-in through the tenant's provider that may not go on: the message is shown to the person,
 * the reason (a stable word) goes to the audit trail.
 */
export class SsoSignInRefused extends DomainError {
  readonly code = 'SSO_SIGN_IN_REFUSED';
  constructor(message: string, readonly reason: string, readonly tenantId: string | null = null, readonly check?: string) { super(message); }
}

/** A group mapping that names a role a provider's group may not give, or too many or too long names. */
export class SsoGroupRolesInvalid extends DomainError {
  readonly code = 'SSO_GROUP_ROLES_INVALID';
  constructor() { super('group_roles must map each group name to admin, member or viewer'); }
}

/** An issuer that is not an https: URL (http: only where the configuration allows it). */
export class SsoIssuerRefused extends DomainError {
  readonly code = 'SSO_ISSUER_REFUSED';
  constructor() { super('issuer must be an https URL'); }
}

/** DNS could not be asked (a timeout, a server failure): nothing is known of the record yet. */
export class DnsUnavailable extends DomainError {
  readonly code = 'DNS_UNAVAILABLE';
  constructor() { super('DNS could not be reached, try again later'); }
}

/** A domain claim of something that is not a domain name. */
export class SsoDomainInvalid extends DomainError {
  readonly code = 'SSO_DOMAIN_INVALID';
  constructor() { super('domain must be a domain name, such as example.com'); }
}

/** A SCIM request whose bearer token is not the tenant's current SCIM token (missing, revoked, replaced or unknown). */
export class InvalidScimToken extends DomainError {
  readonly code = 'INVALID_SCIM_TOKEN';
  constructor() { super('Invalid SCIM token'); }
}

/** DELETE of a tenant's SCIM token when it has none. */
export class ScimTokenNotFound extends DomainError {
  readonly code = 'SCIM_TOKEN_NOT_FOUND';
  constructor() { super('No SCIM token'); }
}

/** Suspending the tenant's last owner who is not suspended would leave nobody able to manage it. */
export class LastActiveOwner extends DomainError {
  readonly code = 'LAST_ACTIVE_OWNER';
  constructor() { super('The last owner cannot be suspended or removed'); }
}

/** SCIM's userName is the member's address, which changes only through the member's own confirmed address change. */
export class ScimUserNameImmutable extends DomainError {
  readonly code = 'SCIM_USER_NAME_IMMUTABLE';
  constructor() { super('userName cannot be changed: it is the member\'s address'); }
}

/** A SCIM create of an address outside the tenant's verified domains. */
export class ScimAddressOutsideDomains extends DomainError {
  readonly code = 'SCIM_ADDRESS_OUTSIDE_DOMAINS';
  constructor() { super("userName must be an address of one of the tenant's verified domains"); }
}
