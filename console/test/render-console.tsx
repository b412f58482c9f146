import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../src/app/app';
import { SessionProvider } from '../src/app/session';
import { fakeApi, tokenFor, type FakeAnswer, type FakeRequest } from './fake-api';

type Routes = Record<string, FakeAnswer | ((request: FakeRequest) => FakeAnswer)>;

/** The whole console at `address`, over a fake API. */
export function renderConsole(address: string, routes: Routes = {}) {
  window.history.replaceState(null, '', `/console${address}`);
  const api = fakeApi(routes);
  const user = userEvent.setup({ delay: null });
  render(<SessionProvider><App /></SessionProvider>);
  return { user, ...api };
}

/**
 * The console signed in as someone of `role`, through the Log in screen (the session lives only in
 * the page's memory), then moved to `address`.
 */
export async function renderSignedIn(role: string, address: string, routes: Routes = {}) {
  const token = tokenFor({ email: `${role}@example.com`, role });
  const rendered = renderConsole('/login', {
    'POST /api/v1/auth/login': { status: 200, body: { token, expires_in: '24h' } },
    'GET /api/v1/auth/me': { status: 200, body: { tenant_id: 't-1', user_id: 'u-1', role } },
    'POST /api/v1/auth/logout': { status: 204, body: null },
    'GET /api/v1/auth/account': {
      status: 200, body: { user_id: 'u-1', email: `${role}@example.com`, role, tenant_id: 't-1', tenant_name: 'Analytical Engines' },
    },
    ...routes,
  });
  await rendered.user.type(screen.getByLabelText('E-mail'), `${role}@example.com`);
  await rendered.user.type(screen.getByLabelText('Password'), 'correct horse battery');
  await rendered.user.click(screen.getByRole('button', { name: 'Log in' }));
  await screen.findByText(`${role}@example.com · ${role}`);
  const link = screen.queryByRole('link', { name: linkName(address) });
  if (link) await rendered.user.click(link);
  return { ...rendered, token };
}

function linkName(address: string): string {
  return { '/members': 'Members', '/invitations': 'Invitations', '/api-keys': 'API keys', '/audit-log': 'Audit log', '/account': 'Account', '/sessions': 'Sessions' }[address] ?? address;
}
