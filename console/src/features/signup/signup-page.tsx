import { useState } from 'react';
import { call } from '../../api/client';
import { useSession } from '../../app/session';
import { ErrorMessage, fieldErrors, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { PasswordStrengthHint } from '../../shared/password-strength-hint';
import { Screen } from '../../shared/screen';
import { emailProblem, type FieldMessages, passwordProblem, problems, tenantNameProblem } from '../../shared/sign-up-rules';

/** A new tenant, with the person signing up as its owner. */
export function SignupPage() {
  const { signIn } = useSession();
  const [tenantName, setTenantName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<FieldMessages>({});
  const signup = useAction(async () => {
    const result = await call('post', '/api/v1/auth/signup', null, { body: { tenant_name: tenantName, email, password } });
    await signIn(result.token);
  });
  const submit = () => {
    const found = problems({ tenant_name: tenantNameProblem(tenantName), email: emailProblem(email), password: passwordProblem(password) });
    setInvalid(found);
    // Every field's problem at once, and no request: the API allows only a few sign-ups a minute.
    if (Object.keys(found).length > 0) {
      signup.setError(null);
      return;
    }
    void signup.run();
  };
  const refused = fieldErrors(signup.error);
  const messageFor = (field: keyof FieldMessages) => invalid[field] ?? refused[field];
  const hasFieldMessages = Object.keys(invalid).length > 0 || Object.keys(refused).length > 0;
  return (
    <Screen title="Sign up">
      <p>Create an organisation; you will be its owner. Joining an existing one takes an invitation link instead.</p>
      <Form label="Sign up" onSubmit={submit}>
        <Field label="Organisation name" autoComplete="organization" value={tenantName} error={messageFor('tenant_name')}
          onChange={(e) => setTenantName(e.target.value)} />
        <Field label="E-mail" type="email" autoComplete="username" value={email} error={messageFor('email')}
          onChange={(e) => setEmail(e.target.value)} />
        <Field label="Password" type="password" autoComplete="new-password" hint="At least 8 characters." value={password}
          error={messageFor('password')} onChange={(e) => setPassword(e.target.value)} />
        <PasswordStrengthHint password={password} context={{ email, organisation: tenantName }} />
        <button type="submit" disabled={signup.pending}>Sign up</button>
        {hasFieldMessages && <p role="alert" className="error">Check the fields marked above.</p>}
        {!hasFieldMessages && <ErrorMessage error={signup.error} />}
      </Form>
    </Screen>
  );
}
