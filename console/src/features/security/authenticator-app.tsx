import { useState } from 'react';
import type { Schemas } from '../../api/client';
import { useSession } from '../../app/session';
import { DateTime } from '../../shared/date-time';
import { ErrorMessage, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { useRecentAuthentication } from '../../shared/recent-authentication';
import { QrCode } from './qr-code';

/**
 * An authenticator app (TOTP): set up by scanning the QR code of the otpauth URI (or typing the
 * secret), confirmed with a code from the app, which answers the recovery codes; or removed.
 */
export function AuthenticatorApp({ factors, onCodes, onChanged }: {
  factors: Schemas['SecondFactors'];
  onCodes: (codes: readonly string[]) => void;
  onChanged: (message: string) => void;
}) {
  const { api } = useSession();
  const [pending, setPending] = useState<Schemas['AuthenticatorAppSecret'] | null>(null);
  const [code, setCode] = useState('');
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);
  const { withRecentAuthentication, prompt } = useRecentAuthentication('Changing your authenticator app');
  const start = useAction(async () => {
    setPending(await withRecentAuthentication(() => api('post', '/api/v1/auth/mfa/totp')));
    setCode('');
  });
  const confirm = useAction(async () => {
    const result = await api('post', '/api/v1/auth/mfa/totp/confirm', { body: { code: code.replace(/\s/g, '') } });
    setPending(null);
    setCode('');
    onCodes(result.recovery_codes);
    onChanged('Your authenticator app is set up: from now on, signing in asks for a code from it.');
  });
  const remove = useAction(async () => {
    await withRecentAuthentication(() => api('delete', '/api/v1/auth/mfa/totp'));
    setConfirmingRemoval(false);
    onChanged('Your authenticator app is removed.');
  });

  return (
    <section aria-labelledby="authenticator-app">
      <h2 id="authenticator-app">Authenticator app</h2>
      {factors.totp ? (
        <>
          <p>Set up on <DateTime iso={factors.totp.enrolled_at} />. Signing in asks for a code from it after your password.</p>
          <div className="row-actions">
            {confirmingRemoval ? (
              <>
                <button type="button" className="danger" disabled={remove.pending} onClick={() => void remove.run()}>Confirm removal of the authenticator app</button>
                <button type="button" onClick={() => setConfirmingRemoval(false)}>Cancel</button>
              </>
            ) : (
              <button type="button" onClick={() => setConfirmingRemoval(true)}>Remove the authenticator app</button>
            )}
          </div>
          <ErrorMessage error={remove.error} />
        </>
      ) : pending ? (
        <div className="enrolment">
          <p>Scan this code with your authenticator app (or type the key below into it), then enter the six digits it shows.</p>
          <QrCode text={pending.otpauth_uri} label="QR code for your authenticator app" />
          <p>Key to type instead: <code className="totp-secret" aria-label="Key for your authenticator app">{pending.secret}</code></p>
          <Form label="Confirm the authenticator app" onSubmit={() => void confirm.run()}>
            <Field label="Code from the app" inputMode="numeric" autoComplete="one-time-code" value={code}
              onChange={(event) => setCode(event.target.value)} />
            <div className="row-actions">
              <button type="submit" disabled={confirm.pending}>Confirm</button>
              <button type="button" className="secondary" onClick={() => setPending(null)}>Cancel</button>
            </div>
            <ErrorMessage error={confirm.error} />
          </Form>
        </div>
      ) : (
        <>
          <p>An app on your phone (such as a password manager or an authenticator) that shows a new six-digit code every 30 seconds.</p>
          <button type="button" disabled={start.pending} onClick={() => void start.run()}>Set up an authenticator app</button>
          <ErrorMessage error={start.error} />
        </>
      )}
      {prompt}
    </section>
  );
}
