import { useState } from 'react';
import { useSession } from '../../app/session';
import { ErrorMessage, StatusMessage, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { PasswordStrengthHint } from '../../shared/password-strength-hint';
import { Screen } from '../../shared/screen';
import { ChangeEmailForm } from './change-email-form';

export function AccountPage() {
  const { api, session, replaceToken } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const change = useAction(async () => {
    setStatus(null);
    const result = await api('post', '/api/v1/auth/password', { body: { current_password: current, new_password: next } });
    // Every token issued before the change is refused from now on, this page's included: keep the new one.
    replaceToken(result.token);
    setCurrent('');
    setNext('');
    setStatus('Your password was changed. Sessions elsewhere have ended; API keys keep working.');
  });
  if (!session) return null;
  return (
    <Screen title="Account">
      <h2>Who you are</h2>
      <dl className="facts">
        <dt>E-mail</dt><dd>{session.email ?? 'unknown'}</dd>
        <dt>Role</dt><dd>{session.me.role}</dd>
        {session.account && <><dt>Organisation</dt><dd>{session.account.tenant_name}</dd></>}
        <dt>Organisation id</dt><dd><code>{session.me.tenant_id}</code></dd>
        <dt>User id</dt><dd><code>{session.me.user_id}</code></dd>
      </dl>
      <Form label="Change password" onSubmit={() => void change.run()}>
        <h2>Change password</h2>
        <Field label="Current password" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        <Field label="New password" type="password" autoComplete="new-password" hint="At least 8 characters." value={next} onChange={(e) => setNext(e.target.value)} />
        <PasswordStrengthHint password={next} context={{ email: session.email ?? undefined, organisation: session.account?.tenant_name }} />
        <button type="submit" disabled={change.pending}>Change password</button>
        <ErrorMessage error={change.error} />
        <StatusMessage>{status}</StatusMessage>
      </Form>
      <ChangeEmailForm />
      <p>The console keeps your session in this tab's memory only; Sign out, at the top of every page, ends it at the service and forgets it here.</p>
    </Screen>
  );
}
