import type { MailMessage, Mailer } from '../../application/ports/mailer';

/** A message the development mailbox holds: as sent, with its sender and when it arrived. */
export interface MailboxMessage extends MailMessage {
  readonly from: string;
  readonly sentAt: Date;
}

export interface DevelopmentMailboxOptions {
  /** The From of every message. */
  readonly from: string;
  /** Messages kept; the oldest go first. */
  readonly capacity?: number;
  /** Where each message's one line goes (the logger's info). */
  readonly log?: (line: string) => void;
  readonly now?: () => Date;
}

const DEFAULT_CAPACITY = 100;

/**
 * Stands in for SMTP outside production: keeps the latest messages in memory, for a person or a test
 * to read, and logs one line for each, so a developer can follow a link without a mail server.
 *
 * The line carries the first link of the message's text. Links in mail will carry secrets (reset and
 * verification tokens): that is acceptable only because this mailbox is never chosen in production
 * (src/bootstrap/mailer.ts), where such a line would put live tokens in the logs.
 */
export class DevelopmentMailbox implements Mailer {
  private readonly kept: MailboxMessage[] = [];
  private readonly capacity: number;

  constructor(private readonly options: DevelopmentMailboxOptions) {
    this.capacity = options.capacity ?? DEFAULT_CAPACITY;
    if (!Number.isInteger(this.capacity) || this.capacity < 1) throw new RangeError('capacity must be a whole number of at least 1');
  }

  async send(message: MailMessage): Promise<void> {
    const { to, subject, text, html } = message;
    this.kept.push({ to, subject, text, html, from: this.options.from, sentAt: this.options.now?.() ?? new Date() });
    if (this.kept.length > this.capacity) this.kept.splice(0, this.kept.length - this.capacity);
    const link = firstLink(text);
    this.options.log?.(`mail to ${JSON.stringify(to)}: ${JSON.stringify(subject)}${link ? ` ${link}` : ''}`);
  }

  /** The messages kept, oldest first, newest last. */
  messages(): readonly MailboxMessage[] {
    return [...this.kept];
  }

  /** The newest message to this address, if any. */
  latestTo(to: string): MailboxMessage | undefined {
    for (let i = this.kept.length - 1; i >= 0; i -= 1) if (this.kept[i]!.to === to) return this.kept[i];
    return undefined;
  }
}

/** The first http(s) link of a message's text. */
export function firstLink(text: string): string | undefined {
  return /https?:\/\/[^\s<>"]+/.exec(text)?.[0];
}
