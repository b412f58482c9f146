import { DevelopmentMailbox, firstLink } from '../adapters/mail/development-mailbox';
import { normalizeEmail } from '../domain/email';

/** One message the kit's Portcullis sent. */
export interface SentMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly sentAt: Date;
  /** The first link of the text, if any (a message's call to action comes first). */
  readonly link: string | undefined;
}

/** The console pages a message's link may lead to with a token. */
export type LinkPage = 'reset-password' | 'verify-email' | 'confirm-email' | 'join';

/**
 * What the kit's Portcullis sent, as a mailbox a test reads. Messages leave through the outbox as
 * they do in the service; every read here first delivers whatever is due, so a test reads its
 * mail right after the request that caused it, with no waiting.
 */
export class TestMailbox {
  constructor(private readonly box: DevelopmentMailbox, private readonly deliver: () => Promise<void>) {}

  /** Every message sent so far, oldest first (the kit keeps the newest 1,000). */
  async messages(): Promise<SentMessage[]> {
    await this.deliver();
    return this.box.messages().map(({ to, subject, text, html, sentAt }) => ({ to, subject, text, html, sentAt, link: firstLink(text) }));
  }

  /** Messages to one address, oldest first. */
  async to(address: string): Promise<SentMessage[]> {
    const wanted = normalizeEmail(address);
    return (await this.messages()).filter((message) => message.to === wanted);
  }

  /** The newest message to the address; throws when there is none, naming what there is. */
  async latestTo(address: string): Promise<SentMessage> {
    const messages = await this.to(address);
    const latest = messages[messages.length - 1];
    if (!latest) throw new Error(`no message to ${address}; sent so far: ${JSON.stringify((await this.messages()).map((m) => [m.to, m.subject]))}`);
    return latest;
  }

  /**
   * Follows the newest message to the address to its link's token, as the console page would read
   * it: the token of `/console/<page>?token=…`. Throws when that message has no such link.
   */
  async tokenFor(address: string, page: LinkPage): Promise<string> {
    const message = await this.latestTo(address);
    for (const link of message.text.match(/https?:\/\/[^\s<>"]+/g) ?? []) {
      const url = new URL(link);
      const token = url.searchParams.get('token');
      if (url.pathname === `/console/${page}` && token) return token;
    }
    throw new Error(`the newest message to ${address} ("${message.subject}") has no /console/${page} link with a token`);
  }
}
