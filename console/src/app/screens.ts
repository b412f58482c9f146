import type { ComponentType } from 'react';
import { AccountPage } from '../features/account/account-page';
import { ApiKeysPage } from '../features/api-keys/api-keys-page';
import { AuditLogPage } from '../features/audit-log/audit-log-page';
import { DevMailboxPage } from '../features/dev-mailbox/dev-mailbox-page';
import { ConfirmEmailPage } from '../features/email-address/confirm-email-page';
import { VerifyEmailPage } from '../features/email-address/verify-email-page';
import { InvitationsPage } from '../features/invitations/invitations-page';
import { JoinPage } from '../features/join/join-page';
import { LoginPage } from '../features/login/login-page';
import { MembersPage } from '../features/members/members-page';
import { ForgotPasswordPage } from '../features/password-reset/forgot-password-page';
import { ResetPasswordPage } from '../features/password-reset/reset-password-page';
import { SecurityPage } from '../features/security/security-page';
import { SessionsPage } from '../features/sessions/sessions-page';
import { SignInPolicyPage } from '../features/sign-in-policy/sign-in-policy-page';
import { SignupPage } from '../features/signup/signup-page';
import { SsoCallbackPage } from '../features/login/sso-callback-page';
import { SsoPage } from '../features/single-sign-on/sso-page';

/** Who may open a screen: anyone, anyone signed in, admins and owners, or owners only (the API's rule). */
export type Access = 'public' | 'signed-in' | 'admin' | 'owner';

export interface ScreenEntry {
  readonly path: string;
  readonly label: string;
  readonly access: Access;
  readonly component: ComponentType;
  /** Reached by a link (from a screen or an e-mail), not from the navigation bar. */
  readonly linkedOnly?: boolean;
  /** In the navigation bar of these only, when fewer than `access` admits (the others may still read it at its address). */
  readonly navAccess?: Access;
}

export const SCREENS: readonly ScreenEntry[] = [
  { path: '/login', label: 'Log in', access: 'public', component: LoginPage },
  { path: '/signup', label: 'Sign up', access: 'public', component: SignupPage },
  { path: '/join', label: 'Join', access: 'public', component: JoinPage },
  { path: '/members', label: 'Members', access: 'admin', component: MembersPage },
  { path: '/invitations', label: 'Invitations', access: 'admin', component: InvitationsPage },
  { path: '/api-keys', label: 'API keys', access: 'admin', component: ApiKeysPage },
  { path: '/audit-log', label: 'Audit log', access: 'admin', component: AuditLogPage },
  { path: '/account', label: 'Account', access: 'signed-in', component: AccountPage },
  { path: '/sessions', label: 'Sessions', access: 'signed-in', component: SessionsPage },
  { path: '/security', label: 'Security', access: 'signed-in', component: SecurityPage },
  { path: '/sign-in-policy', label: 'Sign-in policy', access: 'owner', component: SignInPolicyPage },
  // Admins may read the connection, domains and SCIM token state; only owners change them.
  { path: '/sso', label: 'Single sign-on', access: 'admin', navAccess: 'owner', component: SsoPage },
  { path: '/forgot-password', label: 'Forgot password', access: 'public', component: ForgotPasswordPage, linkedOnly: true },
  { path: '/reset-password', label: 'Reset password', access: 'public', component: ResetPasswordPage, linkedOnly: true },
  { path: '/verify-email', label: 'Verify e-mail', access: 'public', component: VerifyEmailPage, linkedOnly: true },
  { path: '/confirm-email', label: 'Confirm new address', access: 'public', component: ConfirmEmailPage, linkedOnly: true },
  { path: '/sso-callback', label: 'Single sign-on', access: 'public', component: SsoCallbackPage, linkedOnly: true },
  // Outside production only, and by address: a production console must not point at a route that is not there.
  { path: '/dev/mailbox', label: 'Development mailbox', access: 'public', component: DevMailboxPage, linkedOnly: true },
];

/** What a session that may only set up a second factor can open (the API's enrolment-only routes). */
export const ENROLMENT_SCREENS: readonly string[] = ['/account', '/security'];
