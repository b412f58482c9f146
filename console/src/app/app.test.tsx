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

  it('shows a viewer only Account, Sessions and Security, and the API\'s refusal at an administration address, with no controls', async () => {
    await renderSignedIn('viewer', '/account');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Account', 'Sessions', 'Security']);
    act(() => navigate('/api-keys'));
    expect(await screen.findByRole('heading', { level: 1, name: 'API keys' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(/^Requires admin role or higher$/);
    expect(within(screen.getByRole('main')).queryByRole('button')).toBeNull();
  });

  it('names the organisation in the header, beside Sign out', async () => {
    const { user } = await renderSignedIn('member', '/account');
    const header = screen.getByRole('banner');
    expect(header).toHaveTextContent('Organisation: Analytical Engines');
    await user.click(within(header).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('You have signed out.')).toBeInTheDocument();
    expect(screen.getByRole('banner')).not.toHaveTextContent('Analytical Engines');
  });

  it('ends the session at the service on Sign out, then forgets the token', async () => {
    const { user, requests, token } = await renderSignedIn('member', '/account');
    await user.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    // 204 No Content is the API's success: no note of a failure.
    expect(screen.getByRole('status')).toHaveTextContent(/^You have signed out\.$/);
    expect(requests.find((r) => r.url === '/api/v1/auth/logout')).toMatchObject({ method: 'POST', authorization: `Bearer ${token}` });
  });

  it.each([
    [400, 'No session to end'],
    [401, 'Invalid or expired token'],
  ])('signs out in the page all the same when the API answers %i (%s): nothing is left to end', async (status, error) => {
    const { user } = await renderSignedIn('member', '/account', { 'POST /api/v1/auth/logout': { status, body: { error } } });
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('You have signed out.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
  });

  it('signs out in the page when the service cannot end the session, and says the session may still be open', async () => {
    const { user } = await renderSignedIn('member', '/account', {
      'POST /api/v1/auth/logout': { status: 503, body: { error: 'Service unavailable' }, headers: { 'Retry-After': '5' } },
    });
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText(/^You have signed out of this page, but the service did not end the session, .* The service said: Service unavailable\. Try again in 5 seconds/))
      .toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
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
