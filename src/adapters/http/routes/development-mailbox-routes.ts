import { firstLink } from '../../mail/development-mailbox';
import { sendJson } from '../fast-path/send-json';
import type { Route } from './route';

/** A message as the development mailbox holds it; the route reads nothing else. */
export interface HeldMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly sentAt: Date;
}

export const DEVELOPMENT_MAILBOX_PATH = '/api/v1/dev/mailbox';

/** A connection from this machine itself: the address of the socket, which no header can change. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * GET /api/v1/dev/mailbox: what the development mailbox holds, newest first, for the console's
 * Development mailbox page. Its links carry live tokens of every tenant, which is why the composition
 * root adds this route only when the mailer is the development mailbox: a mailbox that is never
 * chosen in production (src/bootstrap/mailer.ts), so there the path is an unknown route (404).
 * And outside production it answers only a connection from this machine: a staging server left
 * without SMTP_URL and without NODE_ENV=production must not hand its reset links to the internet.
 * Anyone else gets the unknown route's 404. (X-Forwarded-For is not asked: it can say anything.)
 */
export function developmentMailboxRoutes(messages: () => readonly HeldMessage[]): Route[] {
  return [{
    method: 'get', path: DEVELOPMENT_MAILBOX_PATH, group: 'public',
    handle: () => ({
      stream: (req, res) => {
        if (!isLoopback(req.socket.remoteAddress)) return sendJson(res, 404, { error: 'Not found' });
        return sendJson(res, 200, {
          messages: [...messages()].reverse().map((message) => ({
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html,
            sent_at: message.sentAt.toISOString(),
            link: firstLink(message.text) ?? null,
          })),
        });
      },
    }),
  }];
}
