import { screen, within } from '@testing-library/react';
import type { FakeRequest } from '../../../test/fake-api';
import { describe, expect, it } from 'vitest';
import { renderSignedIn } from '../../../test/render-console';

const CREATED = '2026-01-31T12:00:00.000Z';
const members = [
  { user_id: 'u-8', email: 'owner@example.com', role: 'owner', created_at: CREATED },
  { user_id: 'u-2', email: 'grace@example.com', role: 'member', created_at: CREATED },
];

describe('Members', () => {
  it('lists members with role and joined date, and changes a role', async () => {
    const { user, requests } = await renderSignedIn('owner', '/members', {
      'GET /api/v1/auth/members': { status: 200, body: { members } },
      'PATCH /api/v1/auth/members/u-2': { status: 200, body: { ...members[1], role: 'admin' } },
    });
    const row = (await screen.findByRole('cell', { name: 'grace@example.com' })).closest('tr')!;
    expect(within(row).getByRole('cell', { name: 'member' })).toBeInTheDocument();
    expect(within(row).getByText((_, element) => element?.tagName === 'TIME' && element.getAttribute('datetime') === CREATED)).toBeInTheDocument();
    await user.selectOptions(within(row).getByRole('combobox', { name: 'Role for grace@example.com' }), 'admin');
    await user.click(within(row).getByRole('button', { name: 'Change role of grace@example.com' }));
    expect(await screen.findByText('grace@example.com is now admin.')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PATCH')).toMatchObject({ url: '/api/v1/auth/members/u-2', body: { role: 'admin' } });
  });

  it('shows the API\'s refusal beside the member', async () => {
    const { user } = await renderSignedIn('owner', '/members', {
      'GET /api/v1/auth/members': { status: 200, body: { members } },
      'DELETE /api/v1/auth/members/u-8': { status: 409, body: { error: 'The last owner cannot be demoted or removed' } },
    });
    await user.click(await screen.findByRole('button', { name: 'Remove owner@example.com' }));
    await user.click(screen.getByRole('button', { name: 'Confirm removing owner@example.com' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^The last owner cannot be demoted or removed$/);
  });

  it('gives an admin no control over an owner and no role above their own', async () => {
    await renderSignedIn('admin', '/members', {
      'GET /api/v1/auth/members': { status: 200, body: { members } },
    });
    const ownerRow = (await screen.findByRole('cell', { name: 'owner@example.com' })).closest('tr')!;
    expect(within(ownerRow).queryByRole('button')).toBeNull();
    expect(within(ownerRow).getByText('Only an owner can change an owner.')).toBeInTheDocument();
    const options = within(screen.getByRole('combobox', { name: 'Role for grace@example.com' })).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['admin', 'member', 'viewer']);
  });

  describe('Sign out everywhere', () => {
    const admin = { user_id: 'u-1', email: 'admin@example.com', role: 'admin', created_at: CREATED };
    const RECENT = { status: 403, body: { error: 'Recent authentication required' } };
    /** Refuses until the password was confirmed, as the API does when the last proof is old. */
    function recentAuthentication() {
      let confirmed = false;
      return {
        'POST /api/v1/auth/reauthenticate': (request: FakeRequest) => {
          if ((request.body as { password?: string }).password !== 'correct horse battery') {
            return { status: 401, body: { error: 'Invalid credentials' } };
          }
          confirmed = true;
          return { status: 200, body: { recent_until: '2026-11-26T06:00:00.000Z' } };
        },
        'DELETE /api/v1/auth/members/u-2/sessions': () => (confirmed ? { status: 200, body: { ended: 2 } } : RECENT),
      };
    }

    it('asks for confirmation, then for the password when the API wants recent authentication, and retries once', async () => {
      const { user, requests } = await renderSignedIn('admin', '/members', {
        'GET /api/v1/auth/members': { status: 200, body: { members: [...members, admin] } },
        ...recentAuthentication(),
      });
      await user.click(await screen.findByRole('button', { name: 'Sign out everywhere: grace@example.com' }));
      expect(requests.some((r) => r.url.startsWith('/api/v1/auth/members/') && r.url.endsWith('/sessions'))).toBe(false);
      await user.click(screen.getByRole('button', { name: 'Confirm sign-out of grace@example.com everywhere' }));

      const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
      expect(dialog).toHaveTextContent('Signing grace@example.com out everywhere needs your password again');
      expect(within(dialog).getByLabelText('Password')).toHaveFocus();
      // A wrong password is the API's 401, shown in the dialog: the admin's own session goes on.
      await user.type(within(dialog).getByLabelText('Password'), 'not my password');
      await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Invalid credentials$/);
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Members');

      await user.clear(within(dialog).getByLabelText('Password'));
      await user.type(within(dialog).getByLabelText('Password'), 'correct horse battery');
      await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
      expect(await screen.findByRole('status')).toHaveTextContent(/^Signed grace@example\.com out everywhere: 2 sessions ended\.$/);
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(requests.filter((r) => r.url.startsWith('/api/v1/auth/members/u-2/sessions')).map((r) => r.method)).toEqual(['DELETE', 'DELETE']);
      expect(requests.filter((r) => r.url === '/api/v1/auth/reauthenticate').map((r) => r.body))
        .toEqual([{ password: 'not my password' }, { password: 'correct horse battery' }]);
    });

    it('shows the API\'s refusal when the password prompt is cancelled', async () => {
      const { user } = await renderSignedIn('admin', '/members', {
        'GET /api/v1/auth/members': { status: 200, body: { members: [...members, admin] } },
        ...recentAuthentication(),
      });
      const row = (await screen.findByRole('cell', { name: 'grace@example.com' })).closest('tr')!;
      await user.click(within(row).getByRole('button', { name: 'Sign out everywhere: grace@example.com' }));
      await user.click(within(row).getByRole('button', { name: 'Confirm sign-out of grace@example.com everywhere' }));
      const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(await within(row).findByRole('alert')).toHaveTextContent(/^Recent authentication required$/);
      expect(screen.queryByRole('dialog')).toBeNull();
    });

    it('signs out at once when the password was proved recently, and shows any other refusal in the API\'s words', async () => {
      const { user } = await renderSignedIn('owner', '/members', {
        'GET /api/v1/auth/members': { status: 200, body: { members: [...members, { ...admin, user_id: 'u-9', email: 'other.owner@example.com', role: 'owner' }] } },
        'DELETE /api/v1/auth/members/u-2/sessions': { status: 200, body: { ended: 0 } },
        'DELETE /api/v1/auth/members/u-9/sessions': { status: 403, body: { error: 'Only an owner can change, remove or grant the owner role' } },
      });
      await user.click(await screen.findByRole('button', { name: 'Sign out everywhere: grace@example.com' }));
      await user.click(screen.getByRole('button', { name: 'Confirm sign-out of grace@example.com everywhere' }));
      expect(await screen.findByRole('status')).toHaveTextContent(/^grace@example\.com had no session to end\.$/);
      expect(screen.queryByRole('dialog')).toBeNull();

      // An owner is offered it on another owner's row; the API still decides.
      await user.click(screen.getByRole('button', { name: 'Sign out everywhere: other.owner@example.com' }));
      await user.click(screen.getByRole('button', { name: 'Confirm sign-out of other.owner@example.com everywhere' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(/^Only an owner can change, remove or grant the owner role$/);
    });

    it('is not offered to an admin on an owner\'s row, nor on your own row', async () => {
      await renderSignedIn('admin', '/members', {
        'GET /api/v1/auth/members': { status: 200, body: { members: [...members, admin] } },
      });
      await screen.findByRole('cell', { name: 'admin@example.com (you)' });
      expect(screen.getAllByRole('button', { name: /^Sign out everywhere:/ }).map((b) => b.getAttribute('aria-label')))
        .toEqual(['Sign out everywhere: grace@example.com']);
    });
  });
});
