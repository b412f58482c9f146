import { useState } from 'react';
import { call } from '../../api/client';
import { useSession } from '../../app/session';
import { ErrorMessage, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { Screen } from '../../shared/screen';

/** A new tenant, with the person signing up as its owner. */
export function SignupPage() {
  const { signIn } = useSession();
  const [tenantName, setTenantName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signup = useAction(async () => {
    const result = await call('post', '/api/v1/auth/signup', null, { body: { tenant_name: tenantName, email, password } });
    await signIn(result.token);
  });
  return (
    <Screen title="Sign up">
      <p>Create an organisation; you will be its owner. Joining an existing one takes an invitation link instead.</p>
      <Form label="Sign up" onSubmit={() => void signup.run()}>
        <Field label="Organisation name" autoComplete="organization" value={tenantName} onChange={(e) => setTenantName(e.target.value)} />
        <Field label="E-mail" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Password" type="password" autoComplete="new-password" hint="At least 8 characters." value={password} onChange={(e) => setPassword(e.target.value)} />
        <button type="submit" disabled={signup.pending}>Sign up</button>
        <ErrorMessage error={signup.error} />
      </Form>
    </Screen>
  );
}
