import { createTransport } from 'nodemailer';
import { MailDeliveryFailed, type MailMessage, type Mailer } from '../../application/ports/mailer';

export interface SmtpMailerOptions {
  /** smtp:// (STARTTLS when the server offers it) or smtps:// (TLS from the start); credentials in the URL. */
  readonly url: string;
  /** The From of every message (MAIL_FROM). */
  readonly from: string;
}

/**
 * nodemailer's codes for a connection that failed or ended before the server answered the message:
 * the message was not refused, so sending it again may succeed.
 */
const CONNECTION_FAILURES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ETLS', 'EPROXY']);

/**
 * Timeouts shorter than nodemailer's defaults (two minutes to connect, ten of silence): a server that
 * does not answer within these is reported as a temporary failure, for the sender to retry, rather
 * than holding the send open.
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/**
 * Connections to the SMTP server, reused from message to message: the delivery worker sends a
 * batch at a time, and a new connection (with its TLS handshake and login) for each message would
 * cost more than the message (docs/benchmarks.md, "Invitations by e-mail from two instances").
 */
const POOL = { pool: true, maxConnections: 3, maxMessages: 100 } as const;

/** Sends through an SMTP server with nodemailer, over a small pool of connections. */
export class SmtpMailer implements Mailer {
  private readonly transport;

  constructor(private readonly options: SmtpMailerOptions) {
    this.transport = createTransport({ url: options.url, ...TIMEOUTS, ...POOL });
  }

  /** Closes the pool's connections (at shutdown, after the last delivery pass). */
  close(): void {
    this.transport.close();
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.options.from, ...message });
    } catch (error) {
      throw deliveryFailure(error);
    }
  }
}

/** Reads only nodemailer's documented error fields: the server's reply code, else its own error code. */
export function deliveryFailure(error: unknown): MailDeliveryFailed {
  const { responseCode, code } = (typeof error === 'object' && error !== null ? error : {}) as {
    responseCode?: unknown; code?: unknown;
  };
  const reason = error instanceof Error ? error.message : String(error);
  if (typeof responseCode === 'number' && responseCode >= 400 && responseCode < 600) {
    const temporary = responseCode < 500;
    return new MailDeliveryFailed(temporary, `The SMTP server ${temporary ? 'deferred' : 'refused'} the message (${responseCode}): ${reason}`, { cause: error });
  }
  if (typeof code === 'string' && CONNECTION_FAILURES.has(code)) {
    return new MailDeliveryFailed(true, `The SMTP server could not be reached (${code}): ${reason}`, { cause: error });
  }
  return new MailDeliveryFailed(false, `The message could not be sent: ${reason}`, { cause: error });
}
