import type { MailMessage } from '../../ports/mailer';
import { layout, paragraph } from '../layout';
import { requireInstant, type MailAddressing, type MailContext } from '../mail-input';
import { formatInstant } from '../wording';

export interface MemberRemovedInput extends MailAddressing {
  /** ISO 8601. */
  readonly removedAt: string;
}

export function memberRemovedMail(input: MemberRemovedInput, _context: MailContext): MailMessage {
  const at = formatInstant(requireInstant(input.removedAt, 'removedAt'));
  return layout(input, {
    subject: `You were removed from ${input.tenantName}`,
    heading: `You were removed from ${input.tenantName}`,
    blocks: [
      paragraph(`On ${at}, your account (${input.to}) was removed from ${input.tenantName}. You no longer have access to it.`),
      paragraph(`If you think this is a mistake, contact the owners or admins of ${input.tenantName}.`),
    ],
  });
}
