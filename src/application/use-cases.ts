import type { Authenticate } from './authenticate';
import type { CreateApiKey } from './create-api-key';
import type { InviteUser } from './invite-user';
import type { ListInvites } from './list-invites';
import type { Login } from './login';
import type { RevokeInvite } from './revoke-invite';
import type { Signup } from './signup';

/** Everything the driving adapters (HTTP) may call: built by the composition root. */
export interface UseCases {
  readonly signup: Signup;
  readonly login: Login;
  readonly authenticate: Authenticate;
  readonly createApiKey: CreateApiKey;
  readonly inviteUser: InviteUser;
  readonly listInvites: ListInvites;
  readonly revokeInvite: RevokeInvite;
}
