import { useState } from 'react';
import { useSession } from '../../app/session';
import { ErrorMessage, StatusMessage, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { useRecentAuthentication } from '../../shared/recent-authentication';
import { emailProblem } from '../../shared/sign-up-rules';

/**
 * A new address is proved before it counts: the API sends a link to it, and the address changes only
 * when that link is opened (the Confirm new address screen). Until then, the current one stays.
 */
export function ChangeEmailForm() {
  const { api } = useSession();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<string | undefined>();
  const [status, setStatus] = useState<string | null>(null);
  const { withRecentAuthentication, prompt } = useRecentAuthentication('Changing your e-mail address');
  const change = useAction(async () => {
    const address = newEmail.trim();
    await withRecentAuthentication(() =>
      api('post', '/api/v1/auth/email/change', { body: { new_email: address, current_password: password } }));
    setPassword('');
    setNewEmail('');
    setStatus(`Check your new inbox: we sent a link to ${address}. Your address changes when you open it; until then, log in with the current one.`);
  });
  const submit = () => {
    const problem = emailProblem(newEmail);
    setInvalid(problem);
    setStatus(null);
    if (problem) {
      change.setError(null);
      return;
    }
    void change.run();
  };
  return (
    <>
      <Form label="Change e-mail address" onSubmit={submit}>
        <h2>Change e-mail address</h2>
        <Field label="New e-mail address" type="email" autoComplete="email" value={newEmail} error={invalid}
          onChange={(e) => setNewEmail(e.target.value)} />
        <Field label="Your password" type="password" autoComplete="current-password" hint="The one you log in with now." value={password}
          onChange={(e) => setPassword(e.target.value)} />
        <button type="submit" disabled={change.pending}>Send the confirmation link</button>
        <ErrorMessage error={change.error} />
        <StatusMessage>{status}</StatusMessage>
      </Form>
      {/* Beside the form, not in it: the dialog holds a form of its own. */}
      {prompt}
    </>
  );
}
