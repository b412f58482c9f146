import { useState } from 'react';
import { call } from '../../api/client';
import { useLocation } from '../../app/router';
import { useSession } from '../../app/session';
import { ErrorMessage, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { Screen } from '../../shared/screen';

/** Accepting an invitation: the link's token is filled in, the person chooses how to log in. */
export function JoinPage() {
  const { signIn } = useSession();
  const { query } = useLocation();
  const [token, setToken] = useState(() => query.get('token') ?? '');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const join = useAction(async () => {
    const result = await call('post', '/api/v1/auth/signup', null, { body: { invite_token: token.trim(), email, password } });
    await signIn(result.token);
  });
  return (
    <Screen title="Join">
      <p>Join the organisation that invited you: the invitation's token comes from your link.</p>
      <Form label="Join" onSubmit={() => void join.run()}>
        <Field label="Invitation token" autoComplete="off" spellCheck={false} value={token} onChange={(e) => setToken(e.target.value)} />
        <Field label="E-mail" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Password" type="password" autoComplete="new-password" hint="At least 8 characters." value={password} onChange={(e) => setPassword(e.target.value)} />
        <button type="submit" disabled={join.pending}>Join</button>
        <ErrorMessage error={join.error} />
      </Form>
    </Screen>
  );
}
