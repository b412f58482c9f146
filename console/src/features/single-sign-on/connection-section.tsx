import { useState } from 'react';
import { useSession } from '../../app/session';
import { CopyButton } from '../../shared/copy-button';
import { DateTime } from '../../shared/date-time';
import { ErrorMessage, fieldErrors, useAction } from '../../shared/feedback';
import { Field, Form, SelectField } from '../../shared/field';
import type { Guard } from './sso-page';
import type { SsoConnection, SsoRole } from './sso-types';

const SSO_ROLES: readonly SsoRole[] = ['admin', 'member', 'viewer'];

interface GroupRow {
  readonly key: number;
  readonly group: string;
  readonly role: SsoRole;
}

function rowsOf(groupRoles: Readonly<Record<string, SsoRole>>): GroupRow[] {
  return Object.entries(groupRoles).map(([group, role], key) => ({ key, group, role }));
}

/** The provider's callback, to register at the provider; the service's own answer once a connection exists. */
export function RedirectUri({ connection, base }: { connection: SsoConnection | null; base: string }) {
  const uri = connection?.redirect_uri ?? `${base}/api/v1/auth/sso/callback`;
  return (
    <div>
      <p>Register this redirect URI at your identity provider, for the application Portcullis signs in with:</p>
      <p className="secret-value"><code aria-label="Redirect URI">{uri}</code> <CopyButton text={uri} label="Copy the redirect URI" /></p>
    </div>
  );
}

/** What an admin may read of the connection (the secret is never answered). */
function ConnectionFacts({ connection }: { connection: SsoConnection }) {
  const groups = Object.entries(connection.group_roles);
  return (
    <dl className="facts" aria-label="Connection">
      <dt>Issuer</dt><dd>{connection.issuer}</dd>
      <dt>Client ID</dt><dd>{connection.client_id}</dd>
      <dt>Default role</dt><dd>{connection.default_role}</dd>
      <dt>Single sign-on required</dt><dd>{connection.sso_required ? 'Yes' : 'No'}</dd>
      <dt>Groups</dt><dd>{groups.length === 0 ? 'None mapped' : groups.map(([group, role]) => `${group} → ${role}`).join(', ')}</dd>
      <dt>Last changed</dt><dd><DateTime iso={connection.updated_at} /></dd>
    </dl>
  );
}

/**
 * The tenant's OpenID Connect provider: an owner sets it (the client secret is write-only, so it is
 * asked for at every save), maps groups to roles, and removes it; an admin reads it.
 */
export function ConnectionSection({ connection, owner, guard, onChanged }: {
  connection: SsoConnection | null;
  owner: boolean;
  guard: Guard;
  onChanged: (message: string) => void;
}) {
  const { api } = useSession();
  const [issuer, setIssuer] = useState(connection?.issuer ?? '');
  const [clientId, setClientId] = useState(connection?.client_id ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [defaultRole, setDefaultRole] = useState<SsoRole>(connection?.default_role ?? 'member');
  const [ssoRequired, setSsoRequired] = useState(connection?.sso_required ?? false);
  const [groups, setGroups] = useState<GroupRow[]>(() => rowsOf(connection?.group_roles ?? {}));
  const [nextKey, setNextKey] = useState(groups.length);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);
  const save = useAction(async () => {
    const groupRoles: Record<string, SsoRole> = {};
    for (const row of groups) {
      if (row.group.trim() !== '') groupRoles[row.group.trim()] = row.role;
    }
    const body = {
      issuer: issuer.trim(), client_id: clientId.trim(), client_secret: clientSecret, default_role: defaultRole, sso_required: ssoRequired,
      group_roles: groupRoles,
    };
    await guard(() => api('put', '/api/v1/auth/sso/connection', { body }));
    onChanged('The connection is saved.');
  });
  const remove = useAction(async () => {
    await guard(() => api('delete', '/api/v1/auth/sso/connection'));
    onChanged('The connection is removed: nobody signs in through the provider any more.');
  });
  const invalid = fieldErrors(save.error);
  const setRow = (key: number, change: Partial<GroupRow>) =>
    setGroups((rows) => rows.map((row) => (row.key === key ? { ...row, ...change } : row)));

  if (!owner) {
    return (
      <section aria-labelledby="sso-connection">
        <h2 id="sso-connection">Identity provider</h2>
        {connection ? <ConnectionFacts connection={connection} /> : <p>Your organisation has no single sign-on connection.</p>}
        <p>Only an owner changes the connection.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="sso-connection">
      <h2 id="sso-connection">Identity provider</h2>
      {!connection && <p>Your organisation has no single sign-on connection yet.</p>}
      <Form label="Identity provider" onSubmit={() => void save.run()}>
        <Field label="Issuer" type="url" autoComplete="off" hint="The provider's issuer URL: its discovery document is read from it."
          value={issuer} error={invalid['issuer']} onChange={(e) => setIssuer(e.target.value)} />
        <Field label="Client ID" autoComplete="off" value={clientId} error={invalid['client_id']} onChange={(e) => setClientId(e.target.value)} />
        <Field label="Client secret" type="password" autoComplete="off"
          hint={connection ? 'Kept encrypted and never shown: enter it again to save changes.' : 'Kept encrypted and never shown.'}
          value={clientSecret} error={invalid['client_secret']} onChange={(e) => setClientSecret(e.target.value)} />
        <SelectField label="Default role" value={defaultRole} onChange={(e) => setDefaultRole(e.target.value as SsoRole)}>
          {SSO_ROLES.map((role) => <option key={role} value={role}>{role}</option>)}
        </SelectField>
        <label className="choice">
          <input type="checkbox" checked={ssoRequired} onChange={(e) => setSsoRequired(e.target.checked)} />
          {' '}Require single sign-on: addresses of your verified domains cannot sign in with a password
        </label>
        <fieldset>
          <legend>Groups to roles</legend>
          <p>A member whose ID token lists one of these groups (its <code>groups</code> claim) gets its role, the highest when several match; others get the default role.</p>
          {groups.map((row, index) => (
            <div key={row.key} className="row-actions">
              <Field label={`Group ${index + 1}`} autoComplete="off" value={row.group} onChange={(e) => setRow(row.key, { group: e.target.value })} />
              <SelectField label={`Role for group ${index + 1}`} value={row.role} onChange={(e) => setRow(row.key, { role: e.target.value as SsoRole })}>
                {SSO_ROLES.map((role) => <option key={role} value={role}>{role}</option>)}
              </SelectField>
              <button type="button" className="secondary" onClick={() => setGroups((rows) => rows.filter((r) => r.key !== row.key))}>
                Remove group {index + 1}
              </button>
            </div>
          ))}
          <button type="button" className="secondary" onClick={() => {
            setGroups((rows) => [...rows, { key: nextKey, group: '', role: 'member' }]);
            setNextKey((key) => key + 1);
          }}>Add a group</button>
        </fieldset>
        <button type="submit" disabled={save.pending}>Save the connection</button>
        <ErrorMessage error={save.error} />
      </Form>
      {connection && (
        <div className="row-actions">
          {confirmingRemoval ? (
            <>
              <button type="button" className="danger" disabled={remove.pending} onClick={() => void remove.run()}>Confirm removal of the connection</button>
              <button type="button" onClick={() => setConfirmingRemoval(false)}>Cancel</button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirmingRemoval(true)}>Remove the connection</button>
          )}
        </div>
      )}
      <ErrorMessage error={remove.error} />
    </section>
  );
}
