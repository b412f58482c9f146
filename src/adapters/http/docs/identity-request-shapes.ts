import { AuditEventsQuery } from '../body/dto/audit-events-query';
import { ChangePasswordBody } from '../body/dto/change-password-body';
import { ChangeRoleBody } from '../body/dto/change-role-body';
import { ChangeEmailBody, EmailLinkTokenBody } from '../body/dto/email-address-bodies';
import { CreateApiKeyBody } from '../body/dto/create-api-key-body';
import { IntrospectBody } from '../body/dto/introspect-body';
import { InviteBody } from '../body/dto/invite-body';
import { LoginBody } from '../body/dto/login-body';
import { ForgotPasswordBody, ResetPasswordBody } from '../body/dto/password-reset-bodies';
import { ReauthenticateBody } from '../body/dto/reauthenticate-body';
import { PasskeySignInBody, RegisterPasskeyBody, RenamePasskeyBody } from '../body/dto/passkey-bodies';
import { SignupBody } from '../body/dto/signup-body';
import { SsoCallbackQuery, SsoConnectionBody, SsoDomainBody, SsoExchangeBody, SsoStartQuery } from '../body/dto/sso-bodies';
import { ConfirmAuthenticatorAppBody, LoginSecondFactorBody } from '../body/dto/second-factor-bodies';
import type { RequestShapes } from './request-schemas';

/**
 * Which DTO each request schema of docs/openapi.yaml is derived from (request-schemas.ts). A route
 * with a new body DTO adds a line here; test/http/request-schemas.test.ts checks that every route's
 * DTO is the one its operation's schema is derived from.
 */
export const IDENTITY_REQUEST_SHAPES: RequestShapes = {
  bodies: {
    IntrospectionRequest: IntrospectBody,
    LoginRequest: LoginBody,
    SignupRequest: SignupBody,
    CreateApiKeyRequest: CreateApiKeyBody,
    InviteRequest: InviteBody,
    ChangeRoleRequest: ChangeRoleBody,
    ChangePasswordRequest: ChangePasswordBody,
    ForgotPasswordRequest: ForgotPasswordBody,
    ResetPasswordRequest: ResetPasswordBody,
    EmailLinkTokenRequest: EmailLinkTokenBody,
    ChangeEmailRequest: ChangeEmailBody,
    ReauthenticateRequest: ReauthenticateBody,
    RegisterPasskeyRequest: RegisterPasskeyBody,
    RenamePasskeyRequest: RenamePasskeyBody,
    PasskeySignInRequest: PasskeySignInBody,
    LoginSecondFactorRequest: LoginSecondFactorBody,
    ConfirmAuthenticatorAppRequest: ConfirmAuthenticatorAppBody,
    SsoConnectionRequest: SsoConnectionBody,
    SsoDomainRequest: SsoDomainBody,
    SsoExchangeRequest: SsoExchangeBody,
  },
  queries: {
    listAuditEvents: AuditEventsQuery,
    startSsoSignIn: SsoStartQuery,
    finishSsoSignIn: SsoCallbackQuery,
  },
};
