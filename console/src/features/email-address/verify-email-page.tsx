import { useEffect } from 'react';
import { call } from '../../api/client';
import { Link } from '../../app/link';
import { useSession } from '../../app/session';
import { ErrorMessage } from '../../shared/feedback';
import { Screen } from '../../shared/screen';
import { useLinkToken } from '../../shared/use-link-token';
import { useOnOpen } from '../../shared/use-on-open';

/** Opens an e-mailed verification link: the address is proved as soon as the page has the token. */
export function VerifyEmailPage() {
  const { session, refreshAccount } = useSession();
  const token = useLinkToken();
  const outcome = useOnOpen(async () => {
    if (!token) throw new Error('no token');
    await call('post', '/api/v1/auth/email/verify', null, { body: { token } });
  });
  const verified = outcome.state === 'done';
  // A signed-in person's banner goes once the account says the address is verified.
  useEffect(() => {
    if (verified) void refreshAccount();
  }, [verified]);
  const onward = session ? <Link to="/account">Go to your account</Link> : <Link to="/login">Log in</Link>;
  return (
    <Screen title="Verify your e-mail address">
      {outcome.state === 'running' && <p role="status">Checking your link…</p>}
      {verified && <p role="status" className="status">Your e-mail address is verified. Thank you.</p>}
      {outcome.state === 'failed' && (token
        ? <ErrorMessage error={outcome.error} />
        : <p role="alert" className="error">This page needs the link from your e-mail, and this address has no token.</p>)}
      {outcome.state === 'failed' && (
        <p>Links work once and for a short time: once logged in, the console offers to send a new one.</p>
      )}
      {outcome.state !== 'running' && <p>{onward}</p>}
    </Screen>
  );
}
