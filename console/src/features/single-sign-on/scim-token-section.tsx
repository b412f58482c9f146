import { useState } from 'react';
import { useSession } from '../../app/session';
import { CopyButton } from '../../shared/copy-button';
import { DateTime } from '../../shared/date-time';
import { ErrorMessage, useAction } from '../../shared/feedback';
import { Field } from '../../shared/field';
import { SecretPanel } from '../../shared/secret-panel';
import type { Guard } from './sso-page';
import type { ScimTokenState } from './sso-types';

/**
 * The organisation's SCIM token, with which its identity provider creates, suspends and removes
 * members. Shown once when made; a new one replaces the old at once.
 */
export function ScimTokenSection({ state, base, owner, guard, onChanged }: {
  state: ScimTokenState;
  base: string;
  owner: boolean;
  guard: Guard;
  onChanged: (message: string) => void;
}) {
  const { api } = useSession();
  const [created, setCreated] = useState<string | null>(null);
  const [confirmingRevoke, setConfirmingRevoke] = useState(false);
  const generate = useAction(async () => {
    const answer = await guard(() => api('post', '/api/v1/auth/sso/scim-token'));
    setCreated(answer.token);
    onChanged(state.exists ? 'A new SCIM token replaces the old one, which no longer works.' : 'The SCIM token is made.');
  });
  const revoke = useAction(async () => {
    await guard(() => api('delete', '/api/v1/auth/sso/scim-token'));
    setConfirmingRevoke(false);
    onChanged('The SCIM token is revoked: your provider can no longer change members.');
  });
  const endpoint = `${base}/api/v1/scim/v2`;
  return (
    <section aria-labelledby="scim-token">
      <h2 id="scim-token">SCIM provisioning</h2>
      <p>
        Your identity provider creates, suspends and removes members over SCIM 2.0 at this address, with the token
        below as its bearer token:
      </p>
      <p className="secret-value"><code aria-label="SCIM base URL">{endpoint}</code> <CopyButton text={endpoint} label="Copy the SCIM base URL" /></p>
      {created && (
        <SecretPanel title="Your SCIM token" onDone={() => setCreated(null)}>
          <p className="warning"><strong>Copy this token into your provider now: you will not see it again.</strong></p>
          <div className="secret-value">
            <Field label="SCIM token" readOnly value={created} onFocus={(e) => e.target.select()} />
            <CopyButton text={created} label="Copy the token" />
          </div>
        </SecretPanel>
      )}
      {state.exists ? (
        <p>A token is set: made <DateTime iso={state.created_at} />, last used <DateTime iso={state.last_used_at} />.</p>
      ) : <p>No token is set: SCIM is off.</p>}
      {owner && (
        <div className="row-actions">
          <button type="button" disabled={generate.pending} onClick={() => void generate.run()}>
            {state.exists ? 'Replace the SCIM token' : 'Make a SCIM token'}
          </button>
          {state.exists && (confirmingRevoke ? (
            <>
              <button type="button" className="danger" disabled={revoke.pending} onClick={() => void revoke.run()}>Confirm revoking the SCIM token</button>
              <button type="button" onClick={() => setConfirmingRevoke(false)}>Cancel</button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirmingRevoke(true)}>Revoke the SCIM token</button>
          ))}
        </div>
      )}
      <ErrorMessage error={generate.error ?? revoke.error} />
    </section>
  );
}
