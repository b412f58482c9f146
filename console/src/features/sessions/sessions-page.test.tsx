import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderSignedIn } from '../../../test/render-console';

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const here = { id: 's-1', created_at: '2026-11-20T08:00:00.000Z', last_seen_at: '2026-11-26T05:00:00.000Z', user_agent: CHROME, ip: '203.0.113.7', current: true };
const laptop = { id: 's-2', created_at: '2026-11-18T09:30:00.000Z', last_seen_at: '2026-11-25T17:45:00.000Z', user_agent: FIREFOX, ip: '198.51.100.23', current: false };
const script = { id: 's-3', created_at: '2026-11-24T10:00:00.000Z', last_seen_at: '2026-11-24T10:00:00.000Z', user_agent: null, ip: null, current: false };

/**
 * The lists the API answers in turn; the first also answers the sign-in's own read (the console
 * reads the sessions once at sign-in, to learn whether the organisation holds it to enrolment).
 */
function sessionsRoute(...lists: object[][]) {
  let served = -1;
  return () => ({ status: 200, body: { sessions: lists[Math.max(0, Math.min(served++, lists.length - 1))] } });
}

const rowOf = async (name: RegExp) => (await screen.findByRole('row', { name })) as HTMLElement;
const timeAt = (iso: string) => (_: string, element: Element | null) => element?.tagName === 'TIME' && element.getAttribute('datetime') === iso;

describe('Sessions', () => {
  it('lists where you are signed in, this device first and marked, with readable devices and exact times', async () => {
    await renderSignedIn('viewer', '/sessions', { 'GET /api/v1/auth/sessions': sessionsRoute([laptop, script, here]) });
    const table = await screen.findByRole('table', { name: 'Where you are signed in (3)' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      `Chrome 131 on Linux${CHROME}This device`, `Firefox 133 on Windows${FIREFOX}`, 'Unknown device',
    ]);
    const current = rows[0]!;
    expect(within(current).getByRole('cell', { name: '203.0.113.7' })).toBeInTheDocument();
    expect(within(current).getByText(timeAt(here.created_at))).toBeInTheDocument();
    expect(within(current).getByText(timeAt(here.last_seen_at))).toBeInTheDocument();
    // The current session is ended by Sign out, not from this list.
    expect(within(current).queryByRole('button')).toBeNull();
    // The full user agent is one step away: a disclosure named by the readable form.
    expect(within(rows[1]!).getByText('Firefox 133 on Windows').tagName).toBe('SUMMARY');
    expect(within(rows[2]!).getAllByRole('cell')[1]).toHaveTextContent('Unknown');
  });

  it('ends one other session, names it, and lists what is left', async () => {
    const { user, requests, token } = await renderSignedIn('member', '/sessions', {
      'GET /api/v1/auth/sessions': sessionsRoute([here, laptop], [here]),
      'DELETE /api/v1/auth/sessions/s-2': { status: 200, body: { ended: true } },
    });
    await rowOf(/Firefox 133 on Windows/);
    await user.click(screen.getByRole('button', { name: /^End session: Firefox 133 on Windows, started / }));
    expect(await screen.findByRole('status')).toHaveTextContent(/^Signed out the session on Firefox 133 on Windows\.$/);
    await screen.findByRole('table', { name: 'Where you are signed in (1)' });
    expect(requests.find((r) => r.method === 'DELETE')).toMatchObject({ url: '/api/v1/auth/sessions/s-2', authorization: `Bearer ${token}` });
  });

  it('shows the API\'s refusal when the session has gone already', async () => {
    const { user } = await renderSignedIn('member', '/sessions', {
      'GET /api/v1/auth/sessions': sessionsRoute([here, laptop]),
      'DELETE /api/v1/auth/sessions/s-2': { status: 404, body: { error: 'Session not found' } },
    });
    const row = await rowOf(/Firefox 133 on Windows/);
    await user.click(within(row).getByRole('button', { name: /^End session:/ }));
    expect(await within(row).findByRole('alert')).toHaveTextContent(/^Session not found$/);
  });

  it('signs out every other session at once and says how many ended', async () => {
    const { user, requests } = await renderSignedIn('member', '/sessions', {
      'GET /api/v1/auth/sessions': sessionsRoute([here, laptop, script], [here]),
      'DELETE /api/v1/auth/sessions': { status: 200, body: { ended: 2 } },
    });
    await rowOf(/Firefox 133 on Windows/);
    await user.click(screen.getByRole('button', { name: 'Sign out all other sessions' }));
    expect(await screen.findByRole('status')).toHaveTextContent(/^Signed out 2 other sessions\.$/);
    await screen.findByRole('table', { name: 'Where you are signed in (1)' });
    expect(screen.getByRole('button', { name: 'Sign out all other sessions' })).toBeDisabled();
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual(['/api/v1/auth/sessions']);
  });

  it('goes back to Log in when this session has been ended elsewhere', async () => {
    await renderSignedIn('member', '/sessions', {
      'GET /api/v1/auth/sessions': { status: 401, body: { error: 'Invalid or expired token' } },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByText('Your session has ended (Invalid or expired token). Log in again.')).toBeInTheDocument();
  });
});
