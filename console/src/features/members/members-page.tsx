import { useState } from 'react';
import type { Role, Schemas } from '../../api/client';
import { useSession } from '../../app/session';
import { DateTime } from '../../shared/date-time';
import { ErrorMessage, StatusMessage, useAction } from '../../shared/feedback';
import { grantableRoles, levelOf } from '../../shared/roles';
import { Screen } from '../../shared/screen';
import { TableScroll } from '../../shared/table-scroll';
import { useResource } from '../../shared/use-resource';
import { SignOutEverywhere } from './sign-out-everywhere';

type Member = Schemas['Member'];

function MemberRow({ member, you, callerRole, onChanged, onSignedOut }: {
  member: Member;
  you: boolean;
  callerRole: string;
  onChanged: (message: string) => void;
  onSignedOut: (message: string) => void;
}) {
  const { api } = useSession();
  const [role, setRole] = useState<Role>(member.role);
  const [confirming, setConfirming] = useState(false);
  const change = useAction(async () => {
    const updated = await api('patch', '/api/v1/auth/members/{id}', { params: { id: member.user_id }, body: { role } });
    onChanged(`${updated.email} is now ${updated.role}.`);
  });
  const remove = useAction(async () => {
    await api('delete', '/api/v1/auth/members/{id}', { params: { id: member.user_id } });
    onChanged(`${member.email} was removed.`);
  });
  // Only an owner changes or removes an owner; nobody grants a role above their own.
  const mayManage = levelOf(member.role) <= levelOf(callerRole);
  const name = `${member.email}${you ? ' (you)' : ''}`;
  return (
    <tr>
      <td>{name}</td>
      <td>{member.role}</td>
      <td><DateTime iso={member.created_at} /></td>
      <td>
        {mayManage ? (
          <div className="row-actions">
            <label className="inline">
              <span className="visually-hidden">Role for {member.email}</span>
              <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {grantableRoles(callerRole).map((option) => <option key={option} value={option}>{option}</option>)}
              </select>
            </label>
            <button type="button" onClick={() => void change.run()} disabled={change.pending || role === member.role}
              aria-label={`Change role of ${member.email}`}>Change role</button>
            {confirming ? (
              <>
                <button type="button" className="danger" onClick={() => void remove.run()} disabled={remove.pending}
                  aria-label={`Confirm removing ${member.email}`}>Confirm removal</button>
                <button type="button" onClick={() => setConfirming(false)} aria-label={`Keep ${member.email}`}>Cancel</button>
              </>
            ) : (
              <button type="button" onClick={() => setConfirming(true)} aria-label={`Remove ${member.email}`}>Remove</button>
            )}
            {/* Your own sessions are on the Sessions screen, where this one is kept. */}
            {!you && <SignOutEverywhere member={member} onDone={onSignedOut} />}
          </div>
        ) : (
          <span>Only an owner can change an owner.</span>
        )}
        <ErrorMessage error={change.error ?? remove.error} />
      </td>
    </tr>
  );
}

export function MembersPage() {
  const { api, session } = useSession();
  const members = useResource(() => api('get', '/api/v1/auth/members'));
  const [status, setStatus] = useState<string | null>(null);
  const callerRole = session?.me.role ?? '';
  return (
    <Screen title="Members">
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage error={members.error} />
      {members.data && (
        <TableScroll label="Members">
          <table>
            <caption>Everyone in your organisation ({members.data.members.length})</caption>
            <thead>
              <tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col">Actions</th></tr>
            </thead>
            <tbody>
              {members.data.members.map((member) => (
                <MemberRow key={`${member.user_id}:${member.role}`} member={member} you={member.user_id === session?.me.user_id}
                  callerRole={callerRole} onChanged={(message) => {
                    setStatus(message);
                    members.reload();
                  }} onSignedOut={setStatus} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Screen>
  );
}
