import { useState } from 'react';
import type { Schemas } from '../../api/client';
import { useSession } from '../../app/session';
import { ErrorMessage, useAction } from '../../shared/feedback';
import { useRecentAuthentication } from '../../shared/recent-authentication';

function outcome(email: string, count: number): string {
  if (count === 0) return `${email} had no session to end.`;
  return `Signed ${email} out everywhere: ${count} ${count === 1 ? 'session' : 'sessions'} ended.`;
}

/**
 * Ends every session of a member (a lost laptop, a departure): their pages bounce to Log in on their
 * next request. The API asks for recent authentication, so the password may be asked for first.
 */
export function SignOutEverywhere({ member, onDone }: { member: Schemas['Member']; onDone: (message: string) => void }) {
  const { api } = useSession();
  const [confirming, setConfirming] = useState(false);
  const { withRecentAuthentication, prompt } = useRecentAuthentication(`Signing ${member.email} out everywhere`);
  const signOut = useAction(async () => {
    const result = await withRecentAuthentication(() =>
      api('delete', '/api/v1/auth/members/{id}/sessions', { params: { id: member.user_id } }));
    setConfirming(false);
    onDone(outcome(member.email, result.ended));
  });
  return (
    <>
      {confirming ? (
        <>
          <button type="button" className="danger" onClick={() => void signOut.run()} disabled={signOut.pending}
            aria-label={`Confirm sign-out of ${member.email} everywhere`}>Confirm sign-out</button>
          <button type="button" onClick={() => setConfirming(false)} aria-label={`Cancel signing out ${member.email}`}>Cancel</button>
        </>
      ) : (
        <button type="button" onClick={() => setConfirming(true)} aria-label={`Sign out everywhere: ${member.email}`}>Sign out everywhere</button>
      )}
      <ErrorMessage error={signOut.error} />
      {prompt}
    </>
  );
}
