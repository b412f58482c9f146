import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderConsole } from '../../../test/render-console';

const LINK = 'http://localhost:3000/console/reset-password?token=' + 'f'.repeat(64);

describe('Development mailbox', () => {
  it('lists the messages newest first, as the API gives them, each with its link to follow', async () => {
    renderConsole('/dev/mailbox', {
      'GET /api/v1/dev/mailbox': {
        status: 200,
        body: {
          messages: [
            { to: 'ada@example.com', subject: 'Reset your password for Analytical Engines', text: `Choose a new password:\n${LINK}`, html: '<p>…</p>', sent_at: '2026-02-01T12:05:00.000Z', link: LINK },
            { to: 'grace@example.com', subject: 'Your password was changed', text: 'No link here.', html: '<p>…</p>', sent_at: '2026-02-01T12:00:00.000Z', link: null },
          ],
        },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Development mailbox' })).toHaveFocus();
    const articles = await screen.findAllByRole('article');
    expect(articles.map((article) => article.getAttribute('aria-label'))).toEqual([
      'Reset your password for Analytical Engines, to ada@example.com',
      'Your password was changed, to grace@example.com',
    ]);
    expect(within(articles[0]!).getByRole('link', { name: LINK })).toHaveAttribute('href', LINK);
    expect(within(articles[0]!).getByText(/Choose a new password:/)).toBeInTheDocument();
    expect(within(articles[1]!).queryByRole('link')).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Main' })).not.toHaveTextContent('mailbox');
  });

  it('says it is not available where the service has no development mailbox (404, as in production)', async () => {
    renderConsole('/dev/mailbox', {});
    expect(await screen.findByRole('alert')).toHaveTextContent('The development mailbox is not available here');
    expect(screen.queryByRole('button', { name: 'Refresh' })).toBeNull();
  });

  it('says when nothing was sent yet, and reads the mailbox again on Refresh', async () => {
    let messages: object[] = [];
    const { user } = renderConsole('/dev/mailbox', { 'GET /api/v1/dev/mailbox': () => ({ status: 200, body: { messages } }) });
    expect(await screen.findByText('No message yet.')).toBeInTheDocument();
    messages = [{ to: 'ada@example.com', subject: 'Verify your address', text: LINK, html: '', sent_at: '2026-02-01T12:05:00.000Z', link: LINK }];
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByRole('article', { name: 'Verify your address, to ada@example.com' })).toBeInTheDocument();
  });
});
