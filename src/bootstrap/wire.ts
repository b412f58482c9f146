import { randomInt } from 'node:crypto';
import { AuditTrail } from '../application/audit/audit-trail';
import { Authenticate } from '../application/authentication/authenticate';
import { AuthenticateService } from '../application/authentication/authenticate-service';
import { ChangeMemberRole } from '../application/members/change-member-role';
import { ChangePassword } from '../application/members/change-password';
import { CreateApiKey } from '../application/api-keys/create-api-key';
import { Introspect } from '../application/authentication/introspect';
import { InviteUser } from '../application/invites/invite-user';
import { ListApiKeys } from '../application/api-keys/list-api-keys';
import { ListAuditEvents } from '../application/audit/list-audit-events';
import { ListInvites } from '../application/invites/list-invites';
import { ListMembers } from '../application/members/list-members';
import { GetAccount } from '../application/account/get-account';
import { Login } from '../application/login/login';
import { ExchangeSsoCode } from '../application/sso/exchange-sso-code';
import { FinishSsoSignIn } from '../application/sso/finish-sso-sign-in';
import type { SsoAddresses } from '../application/sso/sso-settings';
import { StartSsoSignIn } from '../application/sso/start-sso-sign-in';
import type { ApiKeyUsage } from '../application/ports/api-key-usage';
import type { ChangePositions } from '../application/ports/change-positions';
import type { CommonPasswords } from '../application/ports/common-passwords';
import type { Clock } from '../application/ports/clock';
import type { CredentialChangeFeed } from '../application/ports/credential-change-feed';
import type { CredentialStates } from '../application/ports/credential-states';
import type { Freshness } from '../application/ports/freshness';
import type { IdGenerator } from '../application/ports/ids';
import type { DeviceProofs } from '../application/ports/device-proofs';
import type { LoginThrottle } from '../application/ports/login-throttle';
import type { PasswordHasher } from '../application/ports/password-hasher';
import type { Secrets } from '../application/ports/secrets';
import type { ServiceKeyLookup } from '../application/ports/service-keys';
import type { TokenService } from '../application/ports/token-service';
import { RecordRefusal } from '../application/audit/record-refusal';
import { RemoveMember } from '../application/members/remove-member';
import { AuthenticateScim } from '../application/scim/authenticate-scim';
import { CreateScimToken } from '../application/scim/create-scim-token';
import { CreateScimUser } from '../application/scim/create-scim-user';
import { GetScimUser } from '../application/scim/get-scim-user';
import { ListScimUsers } from '../application/scim/list-scim-users';
import { SSO_PROVISIONING } from '../application/scim/provisioning-rules';
import { RemoveScimUser } from '../application/scim/remove-scim-user';
import { RevokeScimToken } from '../application/scim/revoke-scim-token';
import { GetScimTokenStatus } from '../application/scim/scim-token-status';
import { SetScimUserActive } from '../application/scim/set-scim-user-active';
import { RevokeApiKey } from '../application/api-keys/revoke-api-key';
import { RevokeInvite } from '../application/invites/revoke-invite';
import { ResendInvite } from '../application/invites/resend-invite';
import { NewPasswordCheck } from '../application/passwords/new-password-check';
import { Signup } from '../application/signup/signup';
import { EmailTokens } from '../application/mail/email-tokens';
import { Postbox } from '../application/mail/postbox';
import { ForgotPassword } from '../application/password-reset/forgot-password';
import { ResetPassword } from '../application/password-reset/reset-password';
import { ConfirmEmailChange } from '../application/email-address/confirm-email-change';
import { RequestEmailChange } from '../application/email-address/request-email-change';
import { ResendVerification } from '../application/email-address/resend-verification';
import { VerifyEmail } from '../application/email-address/verify-email';
import type { UseCases } from '../application/use-cases';
import type { SessionActivity } from '../application/ports/session-activity';
import { RequireRecentAuthentication } from '../application/authentication/require-recent-authentication';
import { EndMemberSessions } from '../application/sessions/end-member-sessions';
import { EndOtherSessions } from '../application/sessions/end-other-sessions';
import { EndSession } from '../application/sessions/end-session';
import { ListSessions } from '../application/sessions/list-sessions';
import { Logout } from '../application/sessions/logout';
import { Reauthenticate } from '../application/sessions/reauthenticate';
import { SessionBook } from '../application/sessions/session-book';
import { RegisterPasskey } from '../application/passkeys/register-passkey';
import { ManagePasskeys } from '../application/passkeys/manage-passkeys';
import { PasskeySignIn } from '../application/passkeys/passkey-sign-in';
import { PasskeyFactor, removeAllPasskeys } from '../application/mfa/passkey-factor';
import { SecondFactorOptions } from '../application/mfa/second-factor-options';
import { ManageTenantSecurity } from '../application/mfa/tenant-security';
import type { WebAuthnCeremonies } from '../application/ports/webauthn';
import type { ModuleAuditAction } from '../domain/audit-event';
import type { AuthenticatorCodes } from '../application/ports/authenticator-codes';
import type { FactorSecrets } from '../application/ports/factor-secrets';
import type { OidcProviders } from '../application/ports/oidc-providers';
import type { DnsTxtRecords } from '../application/ports/dns-txt-records';
import { ManageSsoConnection } from '../application/sso/manage-sso-connection';
import { ManageSsoDomains } from '../application/sso/manage-sso-domains';
import { AuthenticatorAppCheck } from '../application/mfa/authenticator-app-check';
import { ConfirmAuthenticatorApp } from '../application/mfa/confirm-authenticator-app';
import { EnrollAuthenticatorApp } from '../application/mfa/enroll-authenticator-app';
import { GetSecondFactors } from '../application/mfa/get-second-factors';
import { RecoveryCodes } from '../application/mfa/recovery-codes';
import { RegenerateRecoveryCodes } from '../application/mfa/regenerate-recovery-codes';
import { RemoveAuthenticatorApp } from '../application/mfa/remove-authenticator-app';
import { RemoveMemberFactors } from '../application/mfa/remove-member-factors';
import { SecondFactors } from '../application/mfa/second-factors';
import { CompleteSignIn } from '../application/login/complete-sign-in';
import type { PasswordPolicyName } from '../domain/password-policy';
import type { Storage } from '../adapters/persistence/storage';

/** The ports the use-cases are built over, every one chosen by assemble (assemble.ts). */
export interface Services {
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  readonly clock: Clock;
  /** Failed logins per account: Redis when REDIS_URL is set (instances share the counts), else in process. */
  readonly loginThrottle: LoginThrottle;
  /** Proofs of devices that signed in before, which the login throttle counts apart. */
  readonly deviceProofs: DeviceProofs;
  /** The instance's view of members and keys for authentication, kept current by its credential feed (change-feed.ts). */
  readonly credentials: CredentialStates;
  /** The changes the instance applies, for verifying services' change streams and the trusted service keys. */
  readonly credentialChanges: CredentialChangeFeed;
  /** How far the instance has followed the change log, for introspection answers. */
  readonly changePositions: ChangePositions;
  /** Confirmed by every credential check before it answers from memory (change-feed.ts). */
  readonly freshness: Freshness;
  /** Where service keys are looked up. */
  readonly serviceKeys: ServiceKeyLookup;
  /** Where last_used_at is kept. */
  readonly keyUsage: ApiKeyUsage;
  /** Where sessions' last_seen_at is kept, and this instance's latest use of each. */
  readonly sessionActivity: SessionActivity;
  /** Whether the service can send e-mail at all (a mailer is configured). */
  readonly mailEnabled: boolean;
  /** Told of failures of work done after a request was answered. */
  readonly onBackgroundError: (error: unknown) => void;
  /** The list the strict password policy refuses from; never read under the default policy. */
  readonly commonPasswords: CommonPasswords;
  /** The WebAuthn ceremonies for the relying party PUBLIC_URL names. */
  readonly webauthn: WebAuthnCeremonies;
  /** Authenticator-app codes (TOTP). */
  readonly authenticatorCodes: AuthenticatorCodes;
  /** Seals authenticator apps' secrets at rest (MFA_ENCRYPTION_KEY). */
  readonly factorSecrets: FactorSecrets;
  /** Wrong second-factor proofs per member: the login throttle's machinery with SECOND_FACTOR_FAILURES. */
  readonly secondFactorThrottle: LoginThrottle;
  /** Tenants' OpenID providers (discovery, the code flow, ID token checks). */
  readonly oidcProviders: OidcProviders;
  /** TXT lookups for the proof of a tenant's domain: node:dns, or records held in memory (tests). */
  readonly dnsTxtRecords: DnsTxtRecords;
}

export interface Policy {
  readonly inviteTtlSeconds: number;
  /** INVITE_REQUIRE_EMAIL_MATCH: a signup must use the invited address. Off unless set. */
  readonly inviteRequireEmailMatch?: boolean;
  /** PASSWORD_POLICY: what a new password must meet beyond its length. `default` unless set. */
  readonly passwordPolicy?: PasswordPolicyName;
  /**
   * How long a verified service key is trusted before storage is read again, at most: a revocation
   * the instance reads from the change log ends the trust at once.
   */
  readonly serviceKeyTrustMs?: number | undefined;
  /** The product modules' audit actions (PortcullisModule.auditActions), so the trail's filter knows them. */
  readonly moduleAuditActions?: readonly ModuleAuditAction[];
  /** SESSION_IDLE_TIMEOUT_SECONDS (unset: off) and REAUTH_WINDOW_SECONDS (DEFAULT_REAUTH_WINDOW_SECONDS unless set). */
  readonly sessions?: { readonly idleTimeoutSeconds?: number | undefined; readonly reauthWindowSeconds?: number | undefined };
  /** How long the links in messages last. */
  readonly mailTokens: { readonly resetTtlSeconds: number; readonly verifyTtlSeconds: number; readonly changeTtlSeconds: number };
  /** Single sign-on: where it sends people (both under PUBLIC_URL), and SSO_ALLOW_HTTP_ISSUER. */
  readonly sso: SsoAddresses & { readonly allowHttpIssuer: boolean };
}

export const DEFAULT_SERVICE_KEY_TRUST_MS = 5_000;
/** How long after proving their password a session may use the routes that want recent authentication. */
export const DEFAULT_REAUTH_WINDOW_SECONDS = 600;

/** Up to this long before requested reset links are made (forgot-password.ts says why). */
const RESET_WORK_DELAY_MS = 1_000;

function afterRandomDelay(work: () => void): { cancel(): void } {
  const timer = setTimeout(work, randomInt(RESET_WORK_DELAY_MS));
  timer.unref();
  return { cancel: () => clearTimeout(timer) };
}

/**
 * Every use-case, built from one storage backend and one set of ports: assemble's step (the one
 * composition root, assemble.ts), which main, the test kit and the tests all go through.
 */
export async function buildUseCases(storage: Storage, services: Services, policy: Policy): Promise<UseCases> {
  const { repos, unitOfWork } = storage;
  const { hasher, tokens, ids, secrets, clock, loginThrottle, deviceProofs, credentials, credentialChanges, keyUsage, serviceKeys, sessionActivity } = services;
  const { changePositions: positions, freshness } = services;
  // The one place this instance forgets what it changed: right after each unit of work commits.
  storage.afterCommit((changes) => {
    for (const change of changes) credentials.forget(change);
  });
  // Made once at start so that a login for an unknown e-mail costs one real verification too.
  const dummyHash = await hasher.hash(secrets.randomHex(32));
  const trail = new AuditTrail({ ids, clock });
  const auditEvents = repos.auditEvents;
  const postbox = new Postbox({ enabled: services.mailEnabled, ids, clock, trail });
  const emailTokens = new EmailTokens({ ids, secrets, clock });
  const verification = { postbox, emailTokens, verifyTtlSeconds: policy.mailTokens.verifyTtlSeconds };
  const idleTimeoutSeconds = policy.sessions?.idleTimeoutSeconds;
  const reauthWindowSeconds = policy.sessions?.reauthWindowSeconds ?? DEFAULT_REAUTH_WINDOW_SECONDS;
  const authenticate = new Authenticate({ credentials, freshness, keyUsage, tokens, secrets, clock, sessionActivity, idleTimeoutSeconds });
  // Every way in and every way out of a session goes through this one book.
  const sessions = new SessionBook({ ids, clock, trail });
  const authenticateService = new AuthenticateService({
    serviceKeys, secrets, clock, freshness, trustForMs: policy.serviceKeyTrustMs ?? DEFAULT_SERVICE_KEY_TRUST_MS,
  });
  // A service key revoked or re-scoped is no longer trusted from the moment the change is applied.
  credentialChanges.watch(authenticateService);
  // One check for every way a password is set, so no path applies a weaker rule than another.
  const passkeyDeps = { repos, unitOfWork, webauthn: services.webauthn, ids, secrets, clock, trail, postbox };
  const passwords = new NewPasswordCheck({ policy: policy.passwordPolicy ?? 'default', commonPasswords: services.commonPasswords });
  // Every kind of second factor, one entry each: sign-in, a reset and an admin's removal ask this list.
  const { authenticatorCodes: codes, factorSecrets, secondFactorThrottle } = services;
  const recoveryCodes = new RecoveryCodes({ ids, secrets, clock });
  const passkeyFactor = new PasskeyFactor({ repos, webauthn: services.webauthn, ids, clock });
  const factors = new SecondFactors(
    [new AuthenticatorAppCheck({ codes, factorSecrets, clock }), recoveryCodes, passkeyFactor],
    [
      async (tx, owner) => ((await tx.totpFactors.deleteOf(owner.tenantId, owner.userId)) ? 1 : 0),
      async (tx, owner) => tx.recoveryCodes.deleteAllOf(owner.tenantId, owner.userId),
      removeAllPasskeys,
    ],
  );
  return {
    signup: new Signup({
      repos, unitOfWork, hasher, tokens, ids, secrets, clock, trail, passwords, verification, deviceProofs, sessions,
      inviteRequiresEmailMatch: policy.inviteRequireEmailMatch,
    }),
    login: new Login({
      users: repos.users, hasher, tokens, secrets, throttle: loginThrottle, deviceProofs, dummyHash, auditEvents, trail,
      unitOfWork, sessions, postbox, clock, secondFactors: factors, repos, emailTokens,
    }),
    completeSignIn: new CompleteSignIn({
      repos, unitOfWork, emailTokens, factors, tokens, secrets, throttle: secondFactorThrottle, deviceProofs, sessions, postbox, trail, clock,
    }),
    enrollAuthenticatorApp: new EnrollAuthenticatorApp({ unitOfWork, codes, factorSecrets, ids, clock }),
    confirmAuthenticatorApp: new ConfirmAuthenticatorApp({ unitOfWork, codes, factorSecrets, recoveryCodes, clock, trail, postbox }),
    removeAuthenticatorApp: new RemoveAuthenticatorApp({ unitOfWork, factors, clock, trail, postbox }),
    regenerateRecoveryCodes: new RegenerateRecoveryCodes({ unitOfWork, factors, recoveryCodes, trail }),
    getSecondFactors: new GetSecondFactors({ repos }),
    removeMemberFactors: new RemoveMemberFactors({ unitOfWork, factors, sessions, clock, trail, postbox }),
    authenticate,
    createApiKey: new CreateApiKey({ unitOfWork, trail, ids, secrets, clock, postbox }),
    listApiKeys: new ListApiKeys({ apiKeys: repos.apiKeys }),
    revokeApiKey: new RevokeApiKey({ unitOfWork, trail }),
    inviteUser: new InviteUser({ unitOfWork, trail, ids, secrets, clock, inviteTtlSeconds: policy.inviteTtlSeconds, postbox }),
    listInvites: new ListInvites({ invites: repos.invites, clock }),
    revokeInvite: new RevokeInvite({ unitOfWork, trail }),
    resendInvite: new ResendInvite({ unitOfWork, postbox, clock, trail }),
    listMembers: new ListMembers({ users: repos.users }),
    changeMemberRole: new ChangeMemberRole({ unitOfWork, trail, clock, postbox }),
    removeMember: new RemoveMember({ unitOfWork, clock, trail, postbox, sessions }),
    createScimToken: new CreateScimToken({ unitOfWork, trail, secrets, clock }),
    getScimTokenStatus: new GetScimTokenStatus({ scimTokens: repos.scimTokens }),
    revokeScimToken: new RevokeScimToken({ unitOfWork, trail }),
    authenticateScim: new AuthenticateScim({ scimTokens: repos.scimTokens, secrets, clock }),
    listScimUsers: new ListScimUsers({ users: repos.users }),
    getScimUser: new GetScimUser({ repos }),
    createScimUser: new CreateScimUser({
      unitOfWork, trail, ids, secrets, hasher, clock, sessions, provisioning: SSO_PROVISIONING,
    }),
    setScimUserActive: new SetScimUserActive({ unitOfWork, trail, clock, sessions }),
    removeScimUser: new RemoveScimUser({ unitOfWork, clock, trail, postbox, sessions }),
    changePassword: new ChangePassword({ repos, unitOfWork, hasher, tokens, secrets, throttle: loginThrottle, trail, clock, postbox, passwords, sessions }),
    forgotPassword: new ForgotPassword({
      repos, unitOfWork, postbox, emailTokens, trail, resetTtlSeconds: policy.mailTokens.resetTtlSeconds, onError: services.onBackgroundError,
      later: afterRandomDelay,
    }),
    resetPassword: new ResetPassword({
      repos, unitOfWork, hasher, tokens, emailTokens, postbox, clock, trail, passwords, sessions, factors, throttle: secondFactorThrottle, secrets,
    }),
    verifyEmail: new VerifyEmail({ repos, unitOfWork, emailTokens, clock, trail }),
    resendVerification: new ResendVerification({ unitOfWork, verification }),
    requestEmailChange: new RequestEmailChange({
      repos, unitOfWork, hasher, secrets, throttle: loginThrottle, postbox, emailTokens, trail, changeTtlSeconds: policy.mailTokens.changeTtlSeconds,
    }),
    confirmEmailChange: new ConfirmEmailChange({ repos, unitOfWork, tokens, emailTokens, postbox, clock, trail, sessions }),
    listSessions: new ListSessions({ sessions: repos.sessions, activity: sessionActivity, clock, idleTimeoutSeconds }),
    endSession: new EndSession({ unitOfWork, book: sessions }),
    endOtherSessions: new EndOtherSessions({ unitOfWork, book: sessions }),
    logout: new Logout({ unitOfWork, book: sessions }),
    endMemberSessions: new EndMemberSessions({ unitOfWork, book: sessions }),
    registerPasskey: new RegisterPasskey(passkeyDeps),
    managePasskeys: new ManagePasskeys(passkeyDeps),
    passkeySignIn: new PasskeySignIn({ ...passkeyDeps, tokens, sessions, deviceProofs }),
    passkeyFactor,
    secondFactorOptions: new SecondFactorOptions({ repos, emailTokens, factors, passkeyFactor }),
    tenantSecurity: new ManageTenantSecurity({ repos, unitOfWork, factors, sessions, trail }),
    ssoConnection: new ManageSsoConnection({
      repos, unitOfWork, providers: services.oidcProviders, factorSecrets, clock, trail, ...policy.sso,
    }),
    ssoDomains: new ManageSsoDomains({ repos, unitOfWork, dns: services.dnsTxtRecords, secrets, clock, trail }),
    startSsoSignIn: new StartSsoSignIn({ repos, oidc: services.oidcProviders, factorSecrets, secrets, clock, addresses: policy.sso }),
    finishSsoSignIn: new FinishSsoSignIn({
      repos, unitOfWork, oidc: services.oidcProviders, factorSecrets, hasher, secrets, ids, clock, trail, sessions, emailTokens, factors, addresses: policy.sso,
    }),
    exchangeSsoCode: new ExchangeSsoCode({ repos, unitOfWork, emailTokens, factors, tokens, secrets, deviceProofs, postbox, clock }),
    reauthenticate: new Reauthenticate({ repos, hasher, secrets, throttle: loginThrottle, clock, reauthWindowSeconds }),
    requireRecentAuthentication: new RequireRecentAuthentication({ credentials, clock, reauthWindowSeconds }),
    getAccount: new GetAccount({ users: repos.users, tenants: repos.tenants }),
    listAuditEvents: new ListAuditEvents({ auditEvents, moduleActions: policy.moduleAuditActions }),
    recordRefusal: new RecordRefusal({ auditEvents, trail }),
    authenticateService,
    introspect: new Introspect({ authenticate, credentials, tokens, secrets, positions, freshness }),
    credentialChanges,
  };
}
