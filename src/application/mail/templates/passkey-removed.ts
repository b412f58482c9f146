import type { MailMessage } from '../../ports/mailer';
import { button, layout, paragraph } from '../layout';
import { consoleLink } from '../links';
import { requireInstant, requireText, type MailAddressing, type MailContext } from '../mail-input';
import { formatInstant } from '../wording';

export interface PasskeyRemovedInput extends MailAddressing {
  readonly passkeyName: string;
  /** ISO 8601. */
  readonly removedAt: string;
}

/** To the member a passkey was removed from. */
export function passkeyRemovedMail(input: PasskeyRemovedInput, context: MailContext): MailMessage {
  const name = requireText(input.passkeyName, 'passkeyName');
  const at = formatInstant(requireInstant(input.removedAt, 'removedAt'));
  return layout(input, {
    subject: `A passkey was removed from your account in ${input.tenantName}`,
    heading: 'A passkey was removed',
    blocks: [
      paragraph(`On ${at}, the passkey named "${name}" was removed from your account in ${input.tenantName} (${input.to}). It no longer signs you in.`),
      paragraph('If you removed it, there is nothing to do.'),
      paragraph(`If you did not, someone else may be signed in as you: change your password and tell the owners or admins of ${input.tenantName}.`),
      button('Go to the sign-in page', consoleLink(context, 'login')),
    ],
  });
}
