import { useState } from 'react';
import type { Schemas } from '../../api/client';
import { BASE } from '../../app/router';
import { useSession } from '../../app/session';
import { CopyButton } from '../../shared/copy-button';
import { DateTime } from '../../shared/date-time';
import { ErrorMessage, StatusMessage, useAction } from '../../shared/feedback';
import { Field, Form, SelectField } from '../../shared/field';
import { grantableRoles } from '../../shared/roles';
import { Screen } from '../../shared/screen';
import { TableScroll } from '../../shared/table-scroll';
import { SecretPanel } from '../../shared/secret-panel';
import { useResource } from '../../shared/use-resource';

type InvitableRole = Schemas['InvitableRole'];
const INVITABLE: readonly InvitableRole[] = ['admin', 'member', 'viewer'];

interface Created {
  readonly email: string;
  readonly token: string;
  readonly expiresAt: string;
}

/** The link an invited person opens: this console's Join screen, with the token filled in. */
export function invitationLink(token: string, origin: string = window.location.origin): string {
  return `${origin}${BASE}/join?token=${encodeURIComponent(token)}`;
}

function CreatedInvitation({ created, onDone }: { created: Created; onDone: () => void }) {
  const link = invitationLink(created.token);
  return (
    <SecretPanel title={`Invitation for ${created.email}`} onDone={onDone}>
      <p>
        Send this link to {created.email}. It works once, until <DateTime iso={created.expiresAt} />. It is shown
        only now: the token cannot be shown again.
      </p>
      <div className="secret-value">
        <Field label="Invitation link" readOnly value={link} onFocus={(e) => e.target.select()} />
        <CopyButton text={link} label="Copy link" />
      </div>
      <div className="secret-value">
        <Field label="Invitation token" readOnly value={created.token} onFocus={(e) => e.target.select()} />
        <CopyButton text={created.token} label="Copy token" />
      </div>
    </SecretPanel>
  );
}

export function InvitationsPage() {
  const { api, session } = useSession();
  const invites = useResource(() => api('get', '/api/v1/auth/invites'));
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InvitableRole>('member');
  const [created, setCreated] = useState<Created | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const invite = useAction(async () => {
    const result = await api('post', '/api/v1/auth/invite', { body: { email, role } });
    setCreated({ email, token: result.invite_token, expiresAt: result.expires_at });
    setEmail('');
    invites.reload();
  });
  const revoke = useAction(async (id: string, invited: string) => {
    await api('delete', '/api/v1/auth/invites/{id}', { params: { id } });
    setStatus(`The invitation for ${invited} was revoked.`);
    invites.reload();
  });
  const resend = useAction(async (id: string, invited: string) => {
    setStatus(null);
    await api('post', '/api/v1/auth/invites/{id}/resend', { params: { id } });
    setStatus(`The invitation for ${invited} was sent again by e-mail, with the same link.`);
  });
  return (
    <Screen title="Invitations">
      {created ? (
        <CreatedInvitation created={created} onDone={() => setCreated(null)} />
      ) : (
        <Form label="Invite someone" onSubmit={() => void invite.run()}>
          <h2>Invite someone</h2>
          <Field label="E-mail" type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
          <SelectField label="Role" value={role} onChange={(e) => setRole(e.target.value as InvitableRole)}>
            {grantableRoles(session?.me.role ?? '', INVITABLE).map((option) => <option key={option} value={option}>{option}</option>)}
          </SelectField>
          <button type="submit" disabled={invite.pending}>Invite</button>
          <ErrorMessage error={invite.error} />
        </Form>
      )}
      <h2>Pending invitations</h2>
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage error={invites.error ?? revoke.error ?? resend.error} />
      {invites.data && (invites.data.invites.length === 0 ? <p>No invitation is waiting.</p> : (
        <TableScroll label="Pending invitations">
          <table>
            <caption>Not yet accepted, newest first</caption>
            <thead>
              <tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Invited</th><th scope="col">Expires</th><th scope="col">Actions</th></tr>
            </thead>
            <tbody>
              {invites.data.invites.map((pending) => (
                <tr key={pending.id}>
                  <td>{pending.email}</td>
                  <td>{pending.role}</td>
                  <td><DateTime iso={pending.created_at} /></td>
                  <td><DateTime iso={pending.expires_at} /></td>
                  <td>
                    <div className="row-actions">
                      <button type="button" onClick={() => void resend.run(pending.id, pending.email)} disabled={resend.pending}
                        aria-label={`Resend invitation to ${pending.email}`}>Resend</button>
                      <button type="button" onClick={() => void revoke.run(pending.id, pending.email)} disabled={revoke.pending}
                        aria-label={`Revoke invitation for ${pending.email}`}>Revoke</button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ))}
    </Screen>
  );
}
