import type { MailMessage } from '../../ports/mailer';
import { button, layout, paragraph } from '../layout';
import { consoleLink } from '../links';
import { requireInstant, type MailAddressing, type MailContext } from '../mail-input';
import { formatInstant } from '../wording';

export interface PasswordResetDoneInput extends MailAddressing {
  /** ISO 8601. */
  readonly resetAt: string;
}

/** After a password was reset through a link sent by e-mail. */
export function passwordResetDoneMail(input: PasswordResetDoneInput, context: MailContext): MailMessage {
  const at = formatInstant(requireInstant(input.resetAt, 'resetAt'));
  return layout(input, {
    subject: `Your password for ${input.tenantName} was reset`,
    heading: 'Your password was reset',
    blocks: [
      paragraph(`On ${at}, the password of your account in ${input.tenantName} (${input.to}) was reset with a link sent to this address.`),
      paragraph('If you reset it, there is nothing more to do. Your API keys still work: a reset does not end them, so review them on the API keys page if you think someone else had your password.'),
      paragraph(`If you did not, someone else can read your e-mail or had the link: secure your mailbox, reset the password again from the sign-in page, and tell the owners or admins of ${input.tenantName}.`),
      button('Go to the sign-in page', consoleLink(context, 'login')),
    ],
  });
}
