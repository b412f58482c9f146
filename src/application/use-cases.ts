import type { Authenticate } from './authenticate';
import type { AuthenticateService } from './authenticate-service';
import type { ChangeMemberRole } from './change-member-role';
import type { ChangePassword } from './change-password';
import type { CreateApiKey } from './create-api-key';
import type { Introspect } from './introspect';
import type { InviteUser } from './invite-user';
import type { ListAuditEvents } from './list-audit-events';
import type { ListApiKeys } from './list-api-keys';
import type { ListInvites } from './list-invites';
import type { ListMembers } from './list-members';
import type { Login } from './login';
import type { RecordRefusal } from './record-refusal';
import type { RemoveMember } from './remove-member';
import type { RevokeApiKey } from './revoke-api-key';
import type { RevokeInvite } from './revoke-invite';
import type { Signup } from './signup';
import type { CredentialChangeFeed } from './ports/credential-change-feed';

/** Everything the driving adapters (HTTP) may call: built by the composition root. */
export interface UseCases {
  readonly signup: Signup;
  readonly login: Login;
  readonly authenticate: Authenticate;
  readonly createApiKey: CreateApiKey;
  readonly listApiKeys: ListApiKeys;
  readonly revokeApiKey: RevokeApiKey;
  readonly inviteUser: InviteUser;
  readonly listInvites: ListInvites;
  readonly revokeInvite: RevokeInvite;
  readonly listMembers: ListMembers;
  readonly changeMemberRole: ChangeMemberRole;
  readonly removeMember: RemoveMember;
  readonly changePassword: ChangePassword;
  readonly listAuditEvents: ListAuditEvents;
  /** Not a request of its own: the HTTP adapter records refused requests through it. */
  readonly recordRefusal: RecordRefusal;
  /** For verifying services: their own credential, introspection and the change feed. */
  readonly authenticateService: AuthenticateService;
  readonly introspect: Introspect;
  readonly credentialChanges: CredentialChangeFeed;
}
