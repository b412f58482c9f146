import { useState } from 'react';
import type { Schemas } from '../../api/client';
import { useSession } from '../../app/session';
import { DateTime } from '../../shared/date-time';
import { ErrorMessage, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { useRecentAuthentication } from '../../shared/recent-authentication';
import { TableScroll } from '../../shared/table-scroll';
import { createPasskey } from './webauthn';

type Passkey = Schemas['Passkey'];

function PasskeyRow({ passkey, onChanged }: { passkey: Passkey; onChanged: (message: string) => void }) {
  const { api } = useSession();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);
  const { withRecentAuthentication, prompt } = useRecentAuthentication(`Removing the passkey ${passkey.name}`);
  const rename = useAction(async () => {
    const result = await api('patch', '/api/v1/auth/mfa/passkeys/{id}', { params: { id: passkey.id }, body: { name: name.trim() } });
    setRenaming(false);
    onChanged(`Renamed the passkey to ${result.name}.`);
  });
  const remove = useAction(async () => {
    await withRecentAuthentication(() => api('delete', '/api/v1/auth/mfa/passkeys/{id}', { params: { id: passkey.id } }));
    onChanged(`Removed the passkey ${passkey.name}.`);
  });
  return (
    <tr>
      <td>
        {renaming ? (
          <Form label={`Rename passkey ${passkey.name}`} className="inline" onSubmit={() => void rename.run()}>
            <Field label="New name" value={name} maxLength={100} autoFocus onChange={(event) => setName(event.target.value)} />
            <div className="row-actions">
              <button type="submit" disabled={rename.pending}>Save</button>
              <button type="button" className="secondary" onClick={() => setRenaming(false)}>Cancel</button>
            </div>
            <ErrorMessage error={rename.error} />
          </Form>
        ) : passkey.name}
      </td>
      <td><DateTime iso={passkey.created_at} /></td>
      <td><DateTime iso={passkey.last_used_at} /></td>
      <td>
        <div className="row-actions">
          {!renaming && <button type="button" aria-label={`Rename passkey ${passkey.name}`} onClick={() => {
            setName(passkey.name);
            setRenaming(true);
          }}>Rename</button>}
          {confirmingRemoval ? (
            <>
              <button type="button" className="danger" disabled={remove.pending} aria-label={`Confirm removal of passkey ${passkey.name}`}
                onClick={() => void remove.run()}>Confirm removal</button>
              <button type="button" aria-label={`Keep passkey ${passkey.name}`} onClick={() => setConfirmingRemoval(false)}>Cancel</button>
            </>
          ) : (
            <button type="button" aria-label={`Remove passkey ${passkey.name}`} onClick={() => setConfirmingRemoval(true)}>Remove</button>
          )}
        </div>
        <ErrorMessage error={remove.error} />
        {prompt}
      </td>
    </tr>
  );
}

/**
 * The person's passkeys, by name: added through the browser (navigator.credentials.create with the
 * API's options, the answer checked by the API), renamed, removed.
 */
export function Passkeys({ passkeys, onChanged }: { passkeys: readonly Passkey[]; onChanged: (message: string) => void }) {
  const { api } = useSession();
  const [name, setName] = useState('');
  const { withRecentAuthentication, prompt } = useRecentAuthentication('Adding a passkey');
  const add = useAction(async () => {
    const label = name.trim();
    const options = await withRecentAuthentication(() => api('post', '/api/v1/auth/mfa/passkeys/options'));
    const response = await createPasskey(options);
    // The reference types the credential as an object of no known fields (the service checks it), hence the cast.
    const body = { name: label, response: response as Record<string, never> };
    const added = await withRecentAuthentication(() => api('post', '/api/v1/auth/mfa/passkeys', { body }));
    setName('');
    onChanged(`Added the passkey ${added.name}.`);
  });
  return (
    <section aria-labelledby="passkeys">
      <h2 id="passkeys">Passkeys</h2>
      <p>
        A passkey is kept by this device, your phone or a security key, and unlocked with your fingerprint,
        face or PIN. It signs you in without a password (&ldquo;Sign in with a passkey&rdquo;), and stands as a second factor.
      </p>
      {passkeys.length > 0 ? (
        <TableScroll label="Your passkeys">
          <table aria-label={`Your passkeys (${passkeys.length})`}>
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Added</th><th scope="col">Last used</th><th scope="col">Actions</th></tr>
            </thead>
            <tbody>
              {passkeys.map((passkey) => <PasskeyRow key={passkey.id} passkey={passkey} onChanged={onChanged} />)}
            </tbody>
          </table>
        </TableScroll>
      ) : <p>You have no passkey yet.</p>}
      <Form label="Add a passkey" onSubmit={() => void add.run()}>
        <Field label="Passkey name" hint="So you can tell your passkeys apart, such as “Work laptop”." value={name} maxLength={100}
          onChange={(event) => setName(event.target.value)} />
        <button type="submit" disabled={add.pending}>Add a passkey</button>
        <ErrorMessage error={add.error} />
      </Form>
      {prompt}
    </section>
  );
}
