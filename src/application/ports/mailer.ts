/** One e-mail, addressed to one recipient. The sender is the service's own (MAIL_FROM). */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  /** The plain-text body: every message has one, for clients that show no HTML. */
  readonly text: string;
  /** The same content as HTML; whatever a user typed in it is escaped by whoever builds the message. */
  readonly html: string;
}

/**
 * Hands e-mail to a transport. Sending is a side effect: callers send after their unit of work has
 * committed, never inside it.
 */
export interface Mailer {
  /**
   * Resolves once the transport has accepted the message (for SMTP: the server answered the message
   * with 250), which is not proof that it reached the inbox. Rejects with MailDeliveryFailed, never
   * with the transport's own error.
   */
  send(message: MailMessage): Promise<void>;
}

/**
 * The transport did not accept a message. `temporary` says whether sending the same message again
 * later may succeed: true when the server could not be reached or timed out, or answered with an
 * SMTP 4xx; false when it refused the message for good (SMTP 5xx: unknown recipient, rejected
 * content, bad credentials) or the failure was none of those, so a retry would only repeat it.
 */
export class MailDeliveryFailed extends Error {
  constructor(readonly temporary: boolean, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MailDeliveryFailed';
  }
}
