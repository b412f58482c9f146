import { useState } from 'react';
import type { Schemas } from '../../api/client';
import { useSession } from '../../app/session';
import { CopyButton } from '../../shared/copy-button';
import { DateTime } from '../../shared/date-time';
import { ErrorMessage, StatusMessage, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { Screen } from '../../shared/screen';
import { TableScroll } from '../../shared/table-scroll';
import { SecretPanel } from '../../shared/secret-panel';
import { useResource } from '../../shared/use-resource';

type CreatedKey = Schemas['CreatedApiKey'];
type KeySummary = Schemas['ApiKeySummary'];

function keyState(key: KeySummary, now: number = Date.now()): string {
  if (key.revoked) return 'Revoked';
  if (key.expires_at !== null && Date.parse(key.expires_at) <= now) return 'Expired';
  return 'Active';
}

export function ApiKeysPage() {
  const { api } = useSession();
  // Keys name their creator by user id; the member list turns that into an e-mail address.
  const keys = useResource(async () => {
    const [list, members] = await Promise.all([api('get', '/api/v1/auth/api-keys'), api('get', '/api/v1/auth/members')]);
    return { keys: list.api_keys, emails: new Map(members.members.map((m) => [m.user_id, m.email])) };
  });
  const [name, setName] = useState('');
  const [days, setDays] = useState('');
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const create = useAction(async () => {
    const body: { name?: string; expires_in_days?: number } = {};
    if (name.trim() !== '') body.name = name.trim();
    if (days.trim() !== '') body.expires_in_days = Number(days);
    setCreated(await api('post', '/api/v1/auth/api-keys', { body }));
    setName('');
    setDays('');
    keys.reload();
  });
  // Revoking cannot be undone and stops whatever uses the key: it takes a second, named click.
  const [confirming, setConfirming] = useState<string | null>(null);
  const revoke = useAction(async (key: KeySummary) => {
    await api('delete', '/api/v1/auth/api-keys/{id}', { params: { id: key.id } });
    setConfirming(null);
    setStatus(`Key ${key.prefix} was revoked.`);
    keys.reload();
  });
  return (
    <Screen title="API keys">
      {created ? (
        <SecretPanel title={`New key ${created.name ?? created.prefix}`} onDone={() => setCreated(null)}>
          <p className="warning"><strong>Copy this key now: you will not see it again.</strong> Only its prefix is kept in the list.</p>
          <div className="secret-value">
            <Field label="New API key" readOnly value={created.api_key} onFocus={(e) => e.target.select()} />
            <CopyButton text={created.api_key} label="Copy key" />
          </div>
          <p>It expires: <DateTime iso={created.expires_at} /></p>
        </SecretPanel>
      ) : (
        <Form label="Create an API key" onSubmit={() => void create.run()}>
          <h2>Create an API key</h2>
          <p>A key acts as you, with your role, from scripts and other services (header <code>x-api-key</code>).</p>
          <Field label="Name" hint="Optional: what the key is for." autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
          <Field label="Expires in (days)" hint="Optional: 1 to 365. Empty: never expires." type="number" inputMode="numeric" min={1} max={365}
            value={days} onChange={(e) => setDays(e.target.value)} />
          <button type="submit" disabled={create.pending}>Create key</button>
          <ErrorMessage error={create.error} />
        </Form>
      )}
      <h2>Keys</h2>
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage error={keys.error ?? revoke.error} />
      {keys.data && (keys.data.keys.length === 0 ? <p>Your organisation has no API key.</p> : (
        <TableScroll label="Keys">
          <table>
            <caption>Every key of your organisation, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Prefix</th><th scope="col">Name</th><th scope="col">Creator</th><th scope="col">Created</th>
                <th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">State</th><th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.keys.map((key) => (
                <tr key={key.id}>
                  <td><code>{key.prefix}</code></td>
                  <td>{key.name ?? '(no name)'}</td>
                  <td>{keys.data!.emails.get(key.created_by) ?? 'a removed member'}</td>
                  <td><DateTime iso={key.created_at} /></td>
                  <td><DateTime iso={key.last_used_at} /></td>
                  <td><DateTime iso={key.expires_at} /></td>
                  <td>{keyState(key)}</td>
                  <td>
                    {!key.revoked && (confirming === key.id ? (
                      <div className="row-actions">
                        <button type="button" className="danger" onClick={() => void revoke.run(key)} disabled={revoke.pending}
                          aria-label={`Confirm revoking key ${key.prefix}`}>Confirm revoke</button>
                        <button type="button" onClick={() => setConfirming(null)} aria-label={`Keep key ${key.prefix}`}>Cancel</button>
                      </div>
                    ) : (
                      <button type="button" onClick={() => setConfirming(key.id)} aria-label={`Revoke key ${key.prefix}`}>Revoke</button>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ))}
    </Screen>
  );
}
