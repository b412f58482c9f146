import type { Authenticate } from './authentication/authenticate';
import type { SecondFactorOptions } from './mfa/second-factor-options';
import type { ManageTenantSecurity } from './mfa/tenant-security';
import type { GetAccount } from './account/get-account';
import type { AuthenticateService } from './authentication/authenticate-service';
import type { ChangeMemberRole } from './members/change-member-role';
import type { ChangePassword } from './members/change-password';
import type { CreateApiKey } from './api-keys/create-api-key';
import type { Introspect } from './authentication/introspect';
import type { InviteUser } from './invites/invite-user';
import type { ListAuditEvents } from './audit/list-audit-events';
import type { ListApiKeys } from './api-keys/list-api-keys';
import type { ListInvites } from './invites/list-invites';
import type { ListMembers } from './members/list-members';
import type { Login } from './login/login';
import type { ExchangeSsoCode } from './sso/exchange-sso-code';
import type { FinishSsoSignIn } from './sso/finish-sso-sign-in';
import type { StartSsoSignIn } from './sso/start-sso-sign-in';
import type { RecordRefusal } from './audit/record-refusal';
import type { RemoveMember } from './members/remove-member';
import type { RevokeApiKey } from './api-keys/revoke-api-key';
import type { RevokeInvite } from './invites/revoke-invite';
import type { ResendInvite } from './invites/resend-invite';
import type { Signup } from './signup/signup';
import type { CredentialChangeFeed } from './ports/credential-change-feed';
import type { ForgotPassword } from './password-reset/forgot-password';
import type { ResetPassword } from './password-reset/reset-password';
import type { ConfirmEmailChange } from './email-address/confirm-email-change';
import type { RequestEmailChange } from './email-address/request-email-change';
import type { ResendVerification } from './email-address/resend-verification';
import type { VerifyEmail } from './email-address/verify-email';
import type { RequireRecentAuthentication } from './authentication/require-recent-authentication';
import type { EndMemberSessions } from './sessions/end-member-sessions';
import type { EndOtherSessions } from './sessions/end-other-sessions';
import type { EndSession } from './sessions/end-session';
import type { ListSessions } from './sessions/list-sessions';
import type { Logout } from './sessions/logout';
import type { Reauthenticate } from './sessions/reauthenticate';
import type { RegisterPasskey } from './passkeys/register-passkey';
import type { ManagePasskeys } from './passkeys/manage-passkeys';
import type { PasskeySignIn } from './passkeys/passkey-sign-in';
import type { PasskeyFactor } from './mfa/passkey-factor';
import type { CompleteSignIn } from './login/complete-sign-in';
import type { ConfirmAuthenticatorApp } from './mfa/confirm-authenticator-app';
import type { EnrollAuthenticatorApp } from './mfa/enroll-authenticator-app';
import type { GetSecondFactors } from './mfa/get-second-factors';
import type { RegenerateRecoveryCodes } from './mfa/regenerate-recovery-codes';
import type { RemoveAuthenticatorApp } from './mfa/remove-authenticator-app';
import type { RemoveMemberFactors } from './mfa/remove-member-factors';
import type { ManageSsoConnection } from './sso/manage-sso-connection';
import type { ManageSsoDomains } from './sso/manage-sso-domains';

/** Everything the driving adapters (HTTP) may call: built by the composition root. */
export interface UseCases {
  readonly signup: Signup;
  readonly login: Login;
  /** The second step of a sign-in with a second factor (POST /login/mfa). */
  readonly completeSignIn: CompleteSignIn;
  readonly enrollAuthenticatorApp: EnrollAuthenticatorApp;
  readonly confirmAuthenticatorApp: ConfirmAuthenticatorApp;
  readonly removeAuthenticatorApp: RemoveAuthenticatorApp;
  readonly regenerateRecoveryCodes: RegenerateRecoveryCodes;
  readonly getSecondFactors: GetSecondFactors;
  readonly removeMemberFactors: RemoveMemberFactors;
  readonly authenticate: Authenticate;
  readonly createApiKey: CreateApiKey;
  readonly listApiKeys: ListApiKeys;
  readonly revokeApiKey: RevokeApiKey;
  readonly inviteUser: InviteUser;
  readonly listInvites: ListInvites;
  readonly revokeInvite: RevokeInvite;
  readonly resendInvite: ResendInvite;
  readonly listMembers: ListMembers;
  readonly changeMemberRole: ChangeMemberRole;
  readonly removeMember: RemoveMember;
  readonly changePassword: ChangePassword;
  readonly forgotPassword: ForgotPassword;
  readonly resetPassword: ResetPassword;
  readonly verifyEmail: VerifyEmail;
  readonly resendVerification: ResendVerification;
  readonly requestEmailChange: RequestEmailChange;
  readonly confirmEmailChange: ConfirmEmailChange;
  readonly getAccount: GetAccount;
  readonly listSessions: ListSessions;
  readonly endSession: EndSession;
  readonly endOtherSessions: EndOtherSessions;
  readonly logout: Logout;
  readonly endMemberSessions: EndMemberSessions;
  readonly reauthenticate: Reauthenticate;
  readonly registerPasskey: RegisterPasskey;
  readonly managePasskeys: ManagePasskeys;
  readonly passkeySignIn: PasskeySignIn;
  /** Not a route of its own yet: the passkey second factor, and the options for it (login/mfa/passkey/options). */
  readonly passkeyFactor: PasskeyFactor;
  /** Passkey assertion options for the second step of a sign-in or a reset. */
  readonly secondFactorOptions: SecondFactorOptions;
  /** A tenant's second-factor policy (GET and PATCH /tenant/security). */
  readonly tenantSecurity: ManageTenantSecurity;
  /** Single sign-on through the tenant's OpenID provider: the redirect, the provider's answer, and the console's code. */
  readonly startSsoSignIn: StartSsoSignIn;
  readonly finishSsoSignIn: FinishSsoSignIn;
  readonly exchangeSsoCode: ExchangeSsoCode;
  /** A tenant's OpenID Connect connection (GET, PUT and DELETE /sso/connection). */
  readonly ssoConnection: ManageSsoConnection;
  /** A tenant's domains and their verification (/sso/domains). */
  readonly ssoDomains: ManageSsoDomains;
  /** Not a request of its own: what a route declared `recentAuth` runs before its handler. */
  readonly requireRecentAuthentication: RequireRecentAuthentication;
  readonly listAuditEvents: ListAuditEvents;
  /** Not a request of its own: the HTTP adapter records refused requests through it. */
  readonly recordRefusal: RecordRefusal;
  /** For verifying services: their own credential, introspection and the change feed. */
  readonly authenticateService: AuthenticateService;
  readonly introspect: Introspect;
  readonly credentialChanges: CredentialChangeFeed;
}
