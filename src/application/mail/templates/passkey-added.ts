import type { MailMessage } from '../../ports/mailer';
import { button, layout, paragraph } from '../layout';
import { consoleLink } from '../links';
import { requireInstant, requireText, type MailAddressing, type MailContext } from '../mail-input';
import { formatInstant } from '../wording';

export interface PasskeyAddedInput extends MailAddressing {
  /** The name the member gave the passkey. */
  readonly passkeyName: string;
  /** ISO 8601. */
  readonly addedAt: string;
}

/** To the member a passkey was added for: it signs in as them, with or without their password. */
export function passkeyAddedMail(input: PasskeyAddedInput, context: MailContext): MailMessage {
  const name = requireText(input.passkeyName, 'passkeyName');
  const at = formatInstant(requireInstant(input.addedAt, 'addedAt'));
  return layout(input, {
    subject: `A passkey was added to your account in ${input.tenantName}`,
    heading: 'A passkey was added',
    blocks: [
      paragraph(`On ${at}, a passkey named "${name}" was added to your account in ${input.tenantName} (${input.to}). It can sign you in without your password.`),
      paragraph('If you added it, there is nothing to do.'),
      paragraph(`If you did not, remove it at once, change your password, and tell the owners or admins of ${input.tenantName}.`),
      button('Go to the sign-in page', consoleLink(context, 'login')),
    ],
  });
}
