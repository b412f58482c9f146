import { useState } from 'react';
import { ApiError, call } from '../../api/client';
import { Link } from '../../app/link';
import { useSession } from '../../app/session';
import { ErrorMessage, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { Screen } from '../../shared/screen';
import { assertPasskey } from '../security/webauthn';
import { SecondFactorStep, secondFactorChallenge, type SecondFactorChallenge } from './second-factor-step';
import { SignInWithSso } from './sign-in-with-sso';

export function LoginPage() {
  const { note, signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);
  const login = useAction(async () => {
    try {
      const result = await call('post', '/api/v1/auth/login', null, { body: { email, password } });
      await signIn(result.token);
    } catch (error) {
      const asked = error instanceof ApiError && error.status === 401 ? secondFactorChallenge(error.body) : null;
      if (!asked) throw error;
      setPassword('');
      setChallenge(asked);
    }
  });
  // Passwordless: any passkey of this site the browser holds; the API finds whose it is.
  const passkey = useAction(async () => {
    const { ceremony, options } = await call('post', '/api/v1/auth/login/passkey/options', null);
    const response = await assertPasskey(options);
    // The reference types the credential as an object of no known fields (the service checks it), hence the cast.
    const result = await call('post', '/api/v1/auth/login/passkey', null, { body: { ceremony, response: response as Record<string, never> } });
    await signIn(result.token);
  });
  return (
    <Screen title="Log in">
      {note && <p role="status" className="note">{note}</p>}
      {challenge ? (
        <SecondFactorStep challenge={challenge} onToken={async (token) => {
          await signIn(token);
        }} onRestart={() => setChallenge(null)} />
      ) : (
        <>
          <Form label="Log in" onSubmit={() => void login.run()}>
            <Field label="E-mail" type="email" autoComplete="username webauthn" value={email} onChange={(e) => setEmail(e.target.value)} />
            <Field label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            <button type="submit" disabled={login.pending}>Log in</button>
            <ErrorMessage error={login.error} />
          </Form>
          <div className="passkey-sign-in">
            <button type="button" className="secondary" disabled={passkey.pending} onClick={() => void passkey.run()}>Sign in with a passkey</button>
            <ErrorMessage error={passkey.error} />
          </div>
          <SignInWithSso email={email} />
        </>
      )}
      <p><Link to="/forgot-password">Forgot your password?</Link></p>
      <p>New here? <Link to="/signup">Sign up</Link> to create an organisation, or open the invitation link you were sent.</p>
    </Screen>
  );
}
