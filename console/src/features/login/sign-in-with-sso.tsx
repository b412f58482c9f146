import { useState } from 'react';
import { call } from '../../api/client';
import { ErrorMessage, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { leaveFor } from '../../shared/leave-console';

/**
 * "Sign in with SSO": the address first, since it names the organisation whose provider signs the
 * person in. The service answers where to go (JSON, not a redirect, so that an address with no
 * single sign-on is said here, in the page), and the page leaves for the provider.
 */
export function SignInWithSso({ email: typed }: { email: string }) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const start = useAction(async () => {
    const { redirect_url: redirectUrl } = await call('get', '/api/v1/auth/sso/start', null, { query: { email: email.trim() } });
    leaveFor(redirectUrl);
  });
  if (!open) {
    return (
      <div className="passkey-sign-in">
        <button type="button" className="secondary" onClick={() => {
          setEmail(typed);
          setOpen(true);
        }}>Sign in with SSO</button>
      </div>
    );
  }
  return (
    <section aria-labelledby="sso-sign-in">
      <h2 id="sso-sign-in">Sign in with SSO</h2>
      <p>Your organisation's identity provider signs you in. Enter your work address to be sent to it.</p>
      <Form label="Sign in with SSO" onSubmit={() => void start.run()}>
        <Field label="Work e-mail" type="email" autoComplete="username" autoFocus value={email} onChange={(e) => setEmail(e.target.value)} />
        <div className="row-actions">
          <button type="submit" disabled={start.pending}>Continue</button>
          <button type="button" className="secondary" onClick={() => setOpen(false)}>Cancel</button>
        </div>
        <ErrorMessage error={start.error} />
      </Form>
    </section>
  );
}
