import type { Logger } from 'pino';
import type { Mailer } from '../application/ports/mailer';
import { DevelopmentMailbox } from '../adapters/mail/development-mailbox';
import { SmtpMailer } from '../adapters/mail/smtp-mailer';
import type { Config } from './config';

/** The From of the development mailbox's messages when MAIL_FROM is unset. */
const DEVELOPMENT_FROM = 'Portcullis <portcullis@localhost>';

/**
 * Which mailer the configuration asks for: SMTP when SMTP_URL is set; outside production, the
 * development mailbox otherwise; in production without SMTP_URL, none (logged once, here), and the
 * flows that need e-mail say they are unavailable. The development mailbox logs a link of every
 * message, tokens included, so it is never chosen in production.
 */
export function mailerOf(config: Config, logger: Logger | undefined): Mailer | undefined {
  const { smtpUrl, from } = config.mail;
  if (smtpUrl !== undefined) return new SmtpMailer({ url: smtpUrl, from: from ?? DEVELOPMENT_FROM });
  if (config.nodeEnv === 'production') {
    logger?.warn('e-mail delivery is not configured (SMTP_URL is unset): nothing will be sent');
    return undefined;
  }
  return new DevelopmentMailbox({
    from: from ?? DEVELOPMENT_FROM,
    log: (line) => logger?.info(`development mailbox: ${line}`),
  });
}
