import { useState } from 'react';
import { call } from '../../api/client';
import { Link } from '../../app/link';
import { ErrorMessage, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { Screen } from '../../shared/screen';
import { emailProblem } from '../../shared/sign-up-rules';

/**
 * Asks for a reset link. The answer never says whether the address has an account (the API answers
 * alike for every address), so the page does not either: the same words whoever typed what. Only a
 * refusal that says nothing about the address is shown: mail being off (503), a malformed address,
 * too many requests.
 */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState<string | undefined>();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const ask = useAction(async () => {
    await call('post', '/api/v1/auth/password/forgot', null, { body: { email: email.trim() } });
    setSentTo(email.trim());
  });
  const submit = () => {
    const problem = emailProblem(email);
    setInvalid(problem);
    if (problem) {
      ask.setError(null);
      return;
    }
    void ask.run();
  };
  if (sentTo !== null) {
    return (
      <Screen title="Check your inbox">
        <p role="status">
          If an account uses {sentTo}, we sent a link to it for choosing a new password. The link works once, for a
          short time; asking again replaces it.
        </p>
        <p>Nothing arrived? Check the address and your spam folder, then <Link to="/forgot-password">ask again</Link>.</p>
        <p><Link to="/login">Back to Log in</Link></p>
      </Screen>
    );
  }
  return (
    <Screen title="Forgot your password?">
      <p>Type the address you log in with: we will send a link to choose a new password.</p>
      <Form label="Ask for a reset link" onSubmit={submit}>
        <Field label="E-mail" type="email" autoComplete="username" value={email} error={invalid}
          onChange={(e) => setEmail(e.target.value)} />
        <button type="submit" disabled={ask.pending}>Send the link</button>
        <ErrorMessage error={ask.error} />
      </Form>
      <p><Link to="/login">Back to Log in</Link></p>
    </Screen>
  );
}
