import { call } from '../../api/client';
import { Link } from '../../app/link';
import { type Session, useSession } from '../../app/session';
import { ErrorMessage } from '../../shared/feedback';
import { isAdmin } from '../../shared/roles';
import { Screen } from '../../shared/screen';
import { useLinkToken } from '../../shared/use-link-token';
import { useOnOpen } from '../../shared/use-on-open';

/**
 * Opens the link sent to a new address: the change takes effect, every earlier session ends, and the
 * answer's token becomes this page's session (as Log in's does).
 */
export function ConfirmEmailPage() {
  const { signIn } = useSession();
  const token = useLinkToken();
  const outcome = useOnOpen<Session>(async () => {
    if (!token) throw new Error('no token');
    const result = await call('post', '/api/v1/auth/email/change/confirm', null, { body: { token } });
    return signIn(result.token, { stay: true });
  });
  return (
    <Screen title="Confirm your new address">
      {outcome.state === 'running' && <p role="status">Checking your link…</p>}
      {outcome.state === 'done' && (
        <>
          <p role="status" className="status">
            Your address is now {outcome.value.email ?? 'changed'}: log in with it from now on. Sessions elsewhere have ended.
          </p>
          <p>{isAdmin(outcome.value.me.role) ? <Link to="/members">Go to Members</Link> : <Link to="/account">Go to your account</Link>}</p>
        </>
      )}
      {outcome.state === 'failed' && (
        <>
          {token
            ? <ErrorMessage error={outcome.error} />
            : <p role="alert" className="error">This page needs the link from your e-mail, and this address has no token.</p>}
          <p>Links work once and for a short time: ask for the change again from your account. <Link to="/login">Log in</Link></p>
        </>
      )}
    </Screen>
  );
}
