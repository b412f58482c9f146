import { useState } from 'react';
import { call, type Schemas } from '../../api/client';
import { ErrorMessage, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { assertPasskey } from '../security/webauthn';

type Method = Schemas['SecondFactorMethod'];

/** The 401 "Second factor required" answer to POST /login: the sign-in's mfa_token and the member's kinds of factor. */
export interface SecondFactorChallenge {
  readonly mfaToken: string;
  readonly methods: readonly Method[];
}

/** Reads the challenge out of a refused login, or null when the refusal is another. */
export function secondFactorChallenge(body: unknown): SecondFactorChallenge | null {
  const answer = body as { error?: unknown; mfa_token?: unknown; methods?: unknown } | null;
  if (answer?.error !== 'Second factor required' || typeof answer.mfa_token !== 'string' || !Array.isArray(answer.methods)) return null;
  return { mfaToken: answer.mfa_token, methods: answer.methods.filter((m): m is Method => typeof m === 'string') };
}

/**
 * The second step of Log in: a code from the authenticator app, one of the recovery codes, or a
 * passkey (POST /login/mfa with the mfa_token; a passkey answers the options asked for that token). A wrong code leaves the step open to try again, as the API
 * leaves the mfa_token usable; an expired one sends the person back to the first step.
 */
export function SecondFactorStep({ challenge, onToken, onRestart, firstStep = 'Your password is right.' }: {
  challenge: SecondFactorChallenge;
  onToken: (token: string) => Promise<void>;
  onRestart: () => void;
  /** What the person has proven already, said before asking for the factor. */
  firstStep?: string;
}) {
  const hasApp = challenge.methods.includes('totp');
  const [kind, setKind] = useState<'code' | 'recovery_code'>(hasApp ? 'code' : 'recovery_code');
  const [value, setValue] = useState('');
  const verify = useAction(async () => {
    const proof = kind === 'code' ? { code: value.replace(/\s/g, '') } : { recovery_code: value.trim() };
    const result = await call('post', '/api/v1/auth/login/mfa', null, { body: { mfa_token: challenge.mfaToken, ...proof } });
    await onToken(result.token);
  });
  const passkey = useAction(async () => {
    const options = await call('post', '/api/v1/auth/login/mfa/passkey/options', null, { body: { mfa_token: challenge.mfaToken } });
    const assertion = await assertPasskey(options);
    // The reference types the assertion as an object of no known fields (the service checks it), hence the cast.
    const result = await call('post', '/api/v1/auth/login/mfa', null, { body: { mfa_token: challenge.mfaToken, passkey: assertion as Record<string, never> } });
    await onToken(result.token);
  });
  const switchTo = (next: 'code' | 'recovery_code') => {
    setKind(next);
    setValue('');
    verify.setError(null);
  };
  return (
    <section aria-labelledby="second-factor">
      <h2 id="second-factor">Second factor</h2>
      {kind === 'code' ? (
        <p>{firstStep} Enter the six-digit code your authenticator app shows now.</p>
      ) : (
        <p>Enter one of your recovery codes. Each works once.</p>
      )}
      <Form label="Second factor" onSubmit={() => void verify.run()}>
        {kind === 'code' ? (
          <Field key="code" label="Code from your authenticator app" inputMode="numeric" autoComplete="one-time-code" autoFocus value={value}
            onChange={(event) => setValue(event.target.value)} />
        ) : (
          <Field key="recovery" label="Recovery code" autoComplete="off" spellCheck={false} autoFocus value={value}
            onChange={(event) => setValue(event.target.value)} />
        )}
        <button type="submit" disabled={verify.pending}>Verify</button>
        <ErrorMessage error={verify.error} />
      </Form>
      {challenge.methods.includes('passkey') && (
        <div className="passkey-sign-in">
          <button type="button" className="secondary" disabled={passkey.pending} onClick={() => void passkey.run()}>Use a passkey</button>
          <ErrorMessage error={passkey.error} />
        </div>
      )}
      <div className="row-actions">
        {kind === 'code' && challenge.methods.includes('recovery_code') && (
          <button type="button" className="secondary" onClick={() => switchTo('recovery_code')}>Use a recovery code instead</button>
        )}
        {kind === 'recovery_code' && hasApp && (
          <button type="button" className="secondary" onClick={() => switchTo('code')}>Use your authenticator app instead</button>
        )}
        <button type="button" className="secondary" onClick={onRestart}>Start again</button>
      </div>
    </section>
  );
}
