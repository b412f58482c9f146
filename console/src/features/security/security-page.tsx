import { useState } from 'react';
import { useSession } from '../../app/session';
import { ErrorMessage, StatusMessage, useAction } from '../../shared/feedback';
import { useRecentAuthentication } from '../../shared/recent-authentication';
import { Screen } from '../../shared/screen';
import { useResource } from '../../shared/use-resource';
import { AuthenticatorApp } from './authenticator-app';
import { Passkeys } from './passkeys';
import { RecoveryCodesPanel } from './recovery-codes-panel';

/** The person's own second factors: an authenticator app, recovery codes and passkeys. */
export function SecurityPage() {
  const { api, session, endSession } = useSession();
  const { data, error, reload } = useResource(async () => {
    const [factors, passkeys] = await Promise.all([
      api('get', '/api/v1/auth/mfa'),
      api('get', '/api/v1/auth/mfa/passkeys'),
    ]);
    return { factors, passkeys: passkeys.passkeys };
  });
  const [status, setStatus] = useState<string | null>(null);
  const [codes, setCodes] = useState<readonly string[] | null>(null);
  const { withRecentAuthentication, prompt } = useRecentAuthentication('Making new recovery codes');
  const regenerate = useAction(async () => {
    const result = await withRecentAuthentication(() => api('post', '/api/v1/auth/mfa/recovery-codes'));
    setStatus(null);
    setCodes(result.recovery_codes);
    reload();
  });
  const changed = (message: string) => {
    setStatus(message);
    reload();
  };
  const hasFactor = data !== null && (data.factors.totp !== null || data.passkeys.length > 0);

  return (
    <Screen title="Security">
      <p>
        A second factor keeps your account safe when your password is not: signing in then needs a code from
        your authenticator app, a recovery code or a passkey as well.
      </p>
      {session?.enrollmentOnly && (
        <div className="note" role="status">
          <p>
            Your organisation requires a second factor. Set up an authenticator app or add a passkey here;
            until then the console opens only this screen and Account.
          </p>
          {hasFactor && (
            <p>
              Your second factor is set up. Log in again, with it, to use the rest of the console.{' '}
              <button type="button" onClick={() => void endSession()}>Log in again</button>
            </p>
          )}
        </div>
      )}
      <StatusMessage>{status}</StatusMessage>
      {codes && <RecoveryCodesPanel codes={codes} account={session?.email ?? 'your account'} onDone={() => setCodes(null)} />}
      <ErrorMessage error={error} />
      {data && (
        <>
          <AuthenticatorApp factors={data.factors} onCodes={setCodes} onChanged={changed} />
          <section aria-labelledby="recovery-codes">
            <h2 id="recovery-codes">Recovery codes</h2>
            {hasFactor ? (
              <>
                <p>
                  {data.factors.recovery_codes.remaining === 1 ? '1 recovery code' : `${data.factors.recovery_codes.remaining} recovery codes`} left.
                  Each signs you in once when you cannot use your other factors. Making new ones voids every old one.
                </p>
                <button type="button" disabled={regenerate.pending} onClick={() => void regenerate.run()}>Make new recovery codes</button>
                <ErrorMessage error={regenerate.error} />
              </>
            ) : <p>You get ten when you set up an authenticator app.</p>}
          </section>
          <Passkeys passkeys={data.passkeys} onChanged={changed} />
        </>
      )}
      {prompt}
    </Screen>
  );
}
