import { useState } from 'react';
import { ApiError, call } from '../../api/client';
import { Link } from '../../app/link';
import { navigate, useLocation } from '../../app/router';
import { useSession } from '../../app/session';
import { ErrorMessage } from '../../shared/feedback';
import { Screen } from '../../shared/screen';
import { useLinkToken } from '../../shared/use-link-token';
import { useOnOpen } from '../../shared/use-on-open';
import { SecondFactorStep, secondFactorChallenge } from './second-factor-step';

/**
 * Where the service sends the browser back from the identity provider: with a one-time `code` that
 * this page exchanges (POST, so no bearer token is ever in an address) for a session, or with the
 * service's refusal in `error`. The code leaves the address bar before anything else runs.
 */
export function SsoCallbackPage() {
  const { signIn } = useSession();
  const { query } = useLocation();
  const code = useLinkToken('code');
  const [refusal] = useState(() => query.get('error'));
  const exchange = useOnOpen(async () => {
    if (code === null) return null;
    try {
      const { token } = await call('post', '/api/v1/auth/sso/exchange', null, { body: { code } });
      await signIn(token);
      return null;
    } catch (error) {
      // The tenant asks for its own second factor when the provider did not prove one.
      const asked = error instanceof ApiError && error.status === 401 ? secondFactorChallenge(error.body) : null;
      if (!asked) throw error;
      return asked;
    }
  });

  return (
    <Screen title="Single sign-on">
      {code === null ? (
        <>
          {refusal === null
            ? <p>This page finishes a sign-in through your organisation's identity provider; it was opened without one.</p>
            : <p role="alert" className="error">{refusal}</p>}
          <p><Link to="/login">Back to Log in</Link></p>
        </>
      ) : exchange.state === 'running' ? (
        <p role="status">Signing you in…</p>
      ) : exchange.state === 'failed' ? (
        <>
          <ErrorMessage error={exchange.error} />
          <p><Link to="/login">Back to Log in</Link> to sign in again.</p>
        </>
      ) : exchange.value && (
        <SecondFactorStep challenge={exchange.value} firstStep="Your identity provider signed you in."
          onToken={async (token) => {
            await signIn(token);
          }} onRestart={() => navigate('/login')} />
      )}
    </Screen>
  );
}
