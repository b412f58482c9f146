import type { MailMessage } from '../../ports/mailer';
import { button, layout, paragraph } from '../layout';
import { consoleLink } from '../links';
import { requireInstant, type MailAddressing, type MailContext } from '../mail-input';
import { formatInstant } from '../wording';

export interface PasswordChangedInput extends MailAddressing {
  /** ISO 8601. */
  readonly changedAt: string;
}

/** After a signed-in user changed their password. */
export function passwordChangedMail(input: PasswordChangedInput, context: MailContext): MailMessage {
  const at = formatInstant(requireInstant(input.changedAt, 'changedAt'));
  return layout(input, {
    subject: `Your password for ${input.tenantName} was changed`,
    heading: 'Your password was changed',
    blocks: [
      paragraph(`On ${at}, the password of your account in ${input.tenantName} (${input.to}) was changed.`),
      paragraph('If you changed it, there is nothing to do.'),
      paragraph(`If you did not, someone else may know your password: reset it from the sign-in page and tell the owners or admins of ${input.tenantName}.`),
      button('Go to the sign-in page', consoleLink(context, 'login')),
    ],
  });
}
