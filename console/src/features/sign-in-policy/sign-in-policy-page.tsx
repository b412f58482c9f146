import { useState } from 'react';
import type { components } from '../../api/schema';
import { useSession } from '../../app/session';
import { ErrorMessage, StatusMessage, useAction } from '../../shared/feedback';
import { Form } from '../../shared/field';
import { useRecentAuthentication } from '../../shared/recent-authentication';
import { Screen } from '../../shared/screen';
import { TableScroll } from '../../shared/table-scroll';
import { useResource } from '../../shared/use-resource';

type MfaPolicy = components['schemas']['TenantSecurity']['mfa'];

const OUTCOME: Record<MfaPolicy, string> = {
  optional: 'A second factor is now optional: each member decides.',
  required: 'A second factor is now required: members without one may only set one up until they do.',
};

/**
 * The organisation's second-factor policy (owners): optional or required. The members who have no
 * factor yet are listed before the switch, as the API lists them, so the owner knows who is affected.
 */
export function SignInPolicyPage() {
  const { api } = useSession();
  const { withRecentAuthentication, prompt } = useRecentAuthentication('Reading or changing the sign-in policy');
  const { data, error, reload } = useResource(() => withRecentAuthentication(() => api('get', '/api/v1/auth/tenant/security')));
  const [choice, setChoice] = useState<MfaPolicy | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const chosen = choice ?? data?.mfa ?? 'optional';
  const save = useAction(async () => {
    const result = await withRecentAuthentication(() => api('patch', '/api/v1/auth/tenant/security', { body: { mfa: chosen } }));
    setChoice(null);
    setStatus(OUTCOME[result.mfa]);
    reload();
  });
  const without = data?.members_without_factor ?? [];
  return (
    <Screen title="Sign-in policy">
      <p>Whether every member of your organisation must sign in with a second factor (an authenticator app or a passkey) as well as their password.</p>
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage error={error} />
      {data && (
        <>
          <Form label="Second factor policy" onSubmit={() => void save.run()}>
            <fieldset>
              <legend>Second factor</legend>
              {(['optional', 'required'] as const).map((value) => (
                <label key={value} className="choice">
                  <input type="radio" name="mfa" value={value} checked={chosen === value} onChange={() => setChoice(value)} />
                  {value === 'optional' ? ' Optional: each member decides' : ' Required of every member'}
                </label>
              ))}
            </fieldset>
            {chosen === 'required' && data.mfa === 'optional' && without.length > 0 && (
              <p className="note">
                {without.length === 1 ? '1 member has' : `${without.length} members have`} no second factor yet (listed below): once it is
                required, they can sign in only to set one up.
              </p>
            )}
            <button type="submit" disabled={save.pending || chosen === data.mfa}>Save</button>
            <ErrorMessage error={save.error} />
          </Form>
          <h2>Members without a second factor</h2>
          {without.length === 0 ? <p>Every member has a second factor.</p> : (
            <TableScroll label="Members without a second factor">
              <table aria-label={`Members without a second factor (${without.length})`}>
                <thead><tr><th scope="col">E-mail</th><th scope="col">Role</th></tr></thead>
                <tbody>
                  {without.map((member) => <tr key={member.id}><td>{member.email}</td><td>{member.role}</td></tr>)}
                </tbody>
              </table>
            </TableScroll>
          )}
        </>
      )}
      {prompt}
    </Screen>
  );
}
