import type { MailMessage } from '../../ports/mailer';
import { layout, paragraph } from '../layout';
import { requireInstant, requireText, type MailAddressing, type MailContext } from '../mail-input';
import { formatInstant, maskEmail } from '../wording';

export interface EmailChangedNoticeInput extends MailAddressing {
  /** `to` is the OLD address. The new one is shown masked: whoever reads the old mailbox may not be the owner. */
  readonly newEmail: string;
  /** When the change took effect, ISO 8601. */
  readonly changedAt: string;
}

export function emailChangedNoticeMail(input: EmailChangedNoticeInput, _context: MailContext): MailMessage {
  const masked = maskEmail(requireText(input.newEmail, 'newEmail'));
  const at = formatInstant(requireInstant(input.changedAt, 'changedAt'));
  return layout(input, {
    subject: `Your e-mail address for ${input.tenantName} was changed`,
    heading: 'Your e-mail address was changed',
    blocks: [
      paragraph(`On ${at}, the address of your account in ${input.tenantName} was changed from ${input.to} to ${masked}.`),
      paragraph('Messages about the account now go to the new address, and you sign in with it.'),
      paragraph(`If you did not make this change, contact the owners or admins of ${input.tenantName} at once: someone else may be using your account.`),
    ],
  });
}
