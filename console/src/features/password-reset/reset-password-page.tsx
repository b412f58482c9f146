import { useState } from 'react';
import { ApiError, call } from '../../api/client';
import { Link } from '../../app/link';
import { useSession } from '../../app/session';
import { ErrorMessage, fieldErrors, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { PasswordStrengthHint } from '../../shared/password-strength-hint';
import { Screen } from '../../shared/screen';
import { passwordProblem } from '../../shared/sign-up-rules';
import { useLinkToken } from '../../shared/use-link-token';

interface Problems {
  readonly password?: string | undefined;
  readonly confirm?: string | undefined;
}

function problemsOf(password: string, confirm: string): Problems {
  const found: { password?: string; confirm?: string } = {};
  const weak = passwordProblem(password);
  if (weak) found.password = weak;
  else if (confirm !== password) found.confirm = 'The two passwords differ: type the same one twice.';
  return found;
}

/** A link that can no longer be used (unknown, used, replaced or expired): the way on is a new one. */
function AskAgain() {
  return <p>Links work once and for a short time. <Link to="/forgot-password">Ask for a new link</Link>.</p>;
}

/** Sets a new password with the token of an e-mailed link, and signs the person in as Log in does. */
export function ResetPasswordPage() {
  const { signIn } = useSession();
  const token = useLinkToken();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [invalid, setInvalid] = useState<Problems>({});
  const reset = useAction(async () => {
    const result = await call('post', '/api/v1/auth/password/reset', null, { body: { token: token ?? '', password } });
    await signIn(result.token);
  });
  const submit = () => {
    const found = problemsOf(password, confirm);
    setInvalid(found);
    if (Object.keys(found).length > 0) {
      reset.setError(null);
      return;
    }
    void reset.run();
  };
  if (!token) {
    return (
      <Screen title="Choose a new password">
        <p role="alert" className="error">This page needs the link from your e-mail, and this address has no token.</p>
        <AskAgain />
      </Screen>
    );
  }
  const refused = fieldErrors(reset.error);
  const badLink = reset.error instanceof ApiError && reset.error.status === 400 && Object.keys(refused).length === 0;
  return (
    <Screen title="Choose a new password">
      <p>Your other sessions end when the password changes; API keys keep working.</p>
      <Form label="Choose a new password" onSubmit={submit}>
        <Field label="New password" type="password" autoComplete="new-password" hint="At least 8 characters." value={password}
          error={invalid.password ?? refused['password']} onChange={(e) => setPassword(e.target.value)} />
        <PasswordStrengthHint password={password} />
        <Field label="Confirm new password" type="password" autoComplete="new-password" value={confirm}
          error={invalid.confirm} onChange={(e) => setConfirm(e.target.value)} />
        <button type="submit" disabled={reset.pending}>Set the password</button>
        <ErrorMessage error={reset.error} />
        {badLink && <AskAgain />}
      </Form>
    </Screen>
  );
}
