import type { ComponentType } from 'react';
import { AccountPage } from '../features/account/account-page';
import { ApiKeysPage } from '../features/api-keys/api-keys-page';
import { AuditLogPage } from '../features/audit-log/audit-log-page';
import { InvitationsPage } from '../features/invitations/invitations-page';
import { JoinPage } from '../features/join/join-page';
import { LoginPage } from '../features/login/login-page';
import { MembersPage } from '../features/members/members-page';
import { SignupPage } from '../features/signup/signup-page';

/** Who may open a screen: anyone, anyone signed in, or admins and owners (the API's rule). */
export type Access = 'public' | 'signed-in' | 'admin';

export interface ScreenEntry {
  readonly path: string;
  readonly label: string;
  readonly access: Access;
  readonly component: ComponentType;
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
];
