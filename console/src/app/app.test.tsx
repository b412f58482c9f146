import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderConsole, renderSignedIn } from '../../test/render-console';
import { navigate } from './router';
import { act } from 'react';

describe('the console\'s screens and navigation', () => {
  it('sends a signed-out visitor of a signed-in screen to Log in', async () => {
    renderConsole('/members');
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/console/login');
  });

  it('shows a viewer only Account, and the API\'s refusal at an administration address, with no controls', async () => {
    await renderSignedIn('viewer', '/account');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Account']);
    act(() => navigate('/api-keys'));
    expect(await screen.findByRole('heading', { level: 1, name: 'API keys' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(/^Requires admin role or higher$/);
    expect(within(screen.getByRole('main')).queryByRole('button')).toBeNull();
  });

  it('names the organisation in the header, beside Log out', async () => {
    const { user } = await renderSignedIn('member', '/account');
    const header = screen.getByRole('banner');
    expect(header).toHaveTextContent('Organisation: Analytical Engines');
    await user.click(within(header).getByRole('button', { name: 'Log out' }));
    expect(await screen.findByText('You have logged out.')).toBeInTheDocument();
    expect(screen.getByRole('banner')).not.toHaveTextContent('Analytical Engines');
  });

  it('marks the current screen in the navigation bar', async () => {
    renderConsole('/signup');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Sign up' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Log in' })).not.toHaveAttribute('aria-current');
  });

  it('says so at an address the console does not have', async () => {
    renderConsole('/nowhere');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
  });
});
