import { firstLink } from '../../mail/development-mailbox';
import { json, type Route } from './route';

/** A message as the development mailbox holds it; the route reads nothing else. */
export interface HeldMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly sentAt: Date;
}

export const DEVELOPMENT_MAILBOX_PATH = '/api/v1/dev/mailbox';

/**
 * GET /api/v1/dev/mailbox: what the development mailbox holds, newest first, for the console's
 * Development mailbox page. Its links carry live tokens of every tenant, which is why the composition
 * root adds this route only when the mailer is the development mailbox: a mailbox that is never
 * chosen in production (src/bootstrap/mailer.ts), so there the path is an unknown route (404).
 */
export function developmentMailboxRoutes(messages: () => readonly HeldMessage[]): Route[] {
  return [{
    method: 'get', path: DEVELOPMENT_MAILBOX_PATH, group: 'public',
    handle: () => json(200, {
      messages: [...messages()].reverse().map((message) => ({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        sent_at: message.sentAt.toISOString(),
        link: firstLink(message.text) ?? null,
      })),
    }),
  }];
}
