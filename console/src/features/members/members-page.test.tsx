import { screen, within } from '@testing-library/react';
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
});
