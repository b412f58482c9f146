import { useState } from 'react';
import { API_BASE, ApiError } from '../../api/client';
import { useSession } from '../../app/session';
import { ErrorMessage, StatusMessage } from '../../shared/feedback';
import { openInNewTab } from '../../shared/leave-console';
import { useRecentAuthentication } from '../../shared/recent-authentication';
import { Screen } from '../../shared/screen';
import { useResource } from '../../shared/use-resource';
import { ConnectionSection, RedirectUri } from './connection-section';
import { DomainsSection } from './domains-section';
import { ScimTokenSection } from './scim-token-section';
import type { SsoDomain } from './sso-types';

/** Runs a change that may need the password proved again (the API's recent-authentication rule). */
export type Guard = <T>(action: () => Promise<T>) => Promise<T>;

/**
 * Where a test sign-in starts: from the person's own address, as a member's sign-in does, when its
 * domain is one of the organisation's verified domains (start finds the tenant by domain; the API
 * gives the console no tenant slug for `?tenant=`). Null otherwise.
 */
function testSignInUrl(base: string, email: string | null, domains: readonly SsoDomain[]): string | null {
  const own = email?.split('@').pop()?.toLowerCase();
  if (!email || !domains.some((domain) => domain.verified && domain.domain === own)) return null;
  return `${base}/api/v1/auth/sso/start?${new URLSearchParams({ email }).toString()}`;
}

/**
 * Single sign-on for the organisation: its OpenID Connect provider, the domains whose addresses
 * sign in through it, and the SCIM token its provider manages members with. Owners change them;
 * admins read them.
 */
export function SsoPage() {
  const { api, session } = useSession();
  const owner = session?.me.role === 'owner';
  const base = API_BASE || window.location.origin;
  // Each part loads on its own, so that one the service cannot answer leaves the others usable.
  // Loaded, with no connection yet (404), is `{ current: null }`; still loading is null.
  const connection = useResource(() => api('get', '/api/v1/auth/sso/connection').then(
    (current) => ({ current }),
    (caught: unknown) => {
      if (caught instanceof ApiError && caught.status === 404) return { current: null };
      throw caught;
    },
  ));
  const current = connection.data?.current ?? null;
  const domains = useResource(async () => (await api('get', '/api/v1/auth/sso/domains')).domains);
  const scim = useResource(() => api('get', '/api/v1/auth/sso/scim-token'));
  const testUrl = testSignInUrl(base, session?.email ?? null, domains.data ?? []);
  const [status, setStatus] = useState<string | null>(null);
  const { withRecentAuthentication, prompt } = useRecentAuthentication('Changing single sign-on');
  const changed = (message: string) => {
    setStatus(message);
    for (const part of [connection, domains, scim]) part.reload();
  };

  return (
    <Screen title="Single sign-on">
      <p>
        Members of your organisation sign in through your own identity provider (OpenID Connect): Okta, Entra ID,
        Google Workspace or another. Addresses of your verified domains are sent to it from Log in.
      </p>
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage error={connection.error} />
      {connection.data && (
        <>
          <RedirectUri connection={current} base={base} />
          <ConnectionSection key={current?.updated_at ?? 'none'} connection={current} owner={owner}
            guard={withRecentAuthentication} onChanged={changed} />
        </>
      )}
      {current && (
        <section aria-labelledby="sso-test">
          <h2 id="sso-test">Test sign-in</h2>
          <p>Opens a sign-in through your provider in a new tab, to check the connection; this tab stays as it is.</p>
          {testUrl
            ? <button type="button" onClick={() => openInNewTab(testUrl)}>Test sign-in</button>
            : <p>The test starts from your own address, as a member's sign-in does: it is available once its domain is verified below.</p>}
        </section>
      )}
      <ErrorMessage error={domains.error} />
      {domains.data && <DomainsSection domains={domains.data} owner={owner} guard={withRecentAuthentication} onChanged={changed} />}
      <ErrorMessage error={scim.error} />
      {scim.data && <ScimTokenSection state={scim.data} base={base} owner={owner} guard={withRecentAuthentication} onChanged={changed} />}
      {prompt}
    </Screen>
  );
}
