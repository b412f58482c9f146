import { useState } from 'react';
import { call } from '../../api/client';
import { Link } from '../../app/link';
import { useSession } from '../../app/session';
import { ErrorMessage, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { Screen } from '../../shared/screen';

export function LoginPage() {
  const { note, signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useAction(async () => {
    const result = await call('post', '/api/v1/auth/login', null, { body: { email, password } });
    await signIn(result.token);
  });
  return (
    <Screen title="Log in">
      {note && <p role="status" className="note">{note}</p>}
      <Form label="Log in" onSubmit={() => void login.run()}>
        <Field label="E-mail" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        <button type="submit" disabled={login.pending}>Log in</button>
        <ErrorMessage error={login.error} />
      </Form>
      <p><Link to="/forgot-password">Forgot your password?</Link></p>
      <p>New here? <Link to="/signup">Sign up</Link> to create an organisation, or open the invitation link you were sent.</p>
    </Screen>
  );
}
