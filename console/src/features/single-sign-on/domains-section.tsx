import { useState } from 'react';
import { useSession } from '../../app/session';
import { CopyButton } from '../../shared/copy-button';
import { DateTime } from '../../shared/date-time';
import { ErrorMessage, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { TableScroll } from '../../shared/table-scroll';
import type { Guard } from './sso-page';
import type { SsoDomain } from './sso-types';

function DomainRow({ domain, owner, guard, onChanged }: { domain: SsoDomain; owner: boolean; guard: Guard; onChanged: (message: string) => void }) {
  const { api } = useSession();
  const [confirming, setConfirming] = useState(false);
  const params = { domain: domain.domain };
  const verify = useAction(async () => {
    await api('post', '/api/v1/auth/sso/domains/{domain}/verify', { params });
    onChanged(`${domain.domain} is verified.`);
  });
  const remove = useAction(async () => {
    await guard(() => api('delete', '/api/v1/auth/sso/domains/{domain}', { params }));
    onChanged(`${domain.domain} was removed.`);
  });
  return (
    <tr>
      <th scope="row">{domain.domain}</th>
      <td>
        <code>{domain.txt_name}</code> <CopyButton text={domain.txt_name} label="Copy the record name" />
      </td>
      <td>
        <code>{domain.txt_value}</code> <CopyButton text={domain.txt_value} label="Copy the record value" />
      </td>
      <td>{domain.verified ? <>Verified on <DateTime iso={domain.verified_at} /></> : 'Not verified'}</td>
      {owner && (
        <td>
          <div className="row-actions">
            {!domain.verified && (
              <button type="button" disabled={verify.pending} onClick={() => void verify.run()} aria-label={`Verify ${domain.domain}`}>Verify</button>
            )}
            {confirming ? (
              <>
                <button type="button" className="danger" disabled={remove.pending} onClick={() => void remove.run()}
                  aria-label={`Confirm removing ${domain.domain}`}>Confirm removal</button>
                <button type="button" onClick={() => setConfirming(false)} aria-label={`Keep ${domain.domain}`}>Cancel</button>
              </>
            ) : (
              <button type="button" onClick={() => setConfirming(true)} aria-label={`Remove ${domain.domain}`}>Remove</button>
            )}
          </div>
          <ErrorMessage error={verify.error ?? remove.error} />
        </td>
      )}
    </tr>
  );
}

/**
 * The domains the organisation claims: each is its own once the DNS TXT record it was given is
 * published and verified. Only addresses of verified domains sign in (and join) through the provider.
 */
export function DomainsSection({ domains, owner, guard, onChanged }: {
  domains: readonly SsoDomain[];
  owner: boolean;
  guard: Guard;
  onChanged: (message: string) => void;
}) {
  const { api } = useSession();
  const [name, setName] = useState('');
  const add = useAction(async () => {
    const added = await guard(() => api('post', '/api/v1/auth/sso/domains', { body: { domain: name.trim() } }));
    setName('');
    onChanged(`${added.domain} is added: publish its TXT record, then verify it.`);
  });
  return (
    <section aria-labelledby="sso-domains">
      <h2 id="sso-domains">Domains</h2>
      <p>
        People sign in through your provider with addresses of your verified domains. Prove a domain is yours
        by publishing the TXT record shown for it in its DNS, then verifying it.
      </p>
      {owner && (
        <Form label="Add a domain" onSubmit={() => void add.run()}>
          <Field label="Domain" autoComplete="off" placeholder="example.com" value={name} onChange={(e) => setName(e.target.value)} />
          <button type="submit" disabled={add.pending}>Add the domain</button>
          <ErrorMessage error={add.error} />
        </Form>
      )}
      {domains.length === 0 ? <p>Your organisation has no domain yet.</p> : (
        <TableScroll label="Domains">
          <table aria-label={`Domains (${domains.length})`}>
            <thead>
              <tr>
                <th scope="col">Domain</th><th scope="col">TXT record name</th><th scope="col">TXT record value</th><th scope="col">Status</th>
                {owner && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {domains.map((domain) => <DomainRow key={domain.domain} domain={domain} owner={owner} guard={guard} onChanged={onChanged} />)}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
