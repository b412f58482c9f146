import type { Role } from '../../../domain/role';
import type { MailMessage } from '../../ports/mailer';
import { layout, paragraph } from '../layout';
import { requireInstant, requireRole, type MailAddressing, type MailContext } from '../mail-input';
import { formatInstant } from '../wording';

export interface RoleChangedInput extends MailAddressing {
  readonly oldRole: Role;
  readonly newRole: Role;
  /** ISO 8601. */
  readonly changedAt: string;
}

export function roleChangedMail(input: RoleChangedInput, _context: MailContext): MailMessage {
  const from = requireRole(input.oldRole, 'oldRole');
  const to = requireRole(input.newRole, 'newRole');
  const at = formatInstant(requireInstant(input.changedAt, 'changedAt'));
  return layout(input, {
    subject: `Your role in ${input.tenantName} was changed`,
    heading: 'Your role was changed',
    blocks: [
      paragraph(`On ${at}, your role in ${input.tenantName} (${input.to}) was changed from ${from} to ${to}.`),
      paragraph(`If you think this is a mistake, contact the owners or admins of ${input.tenantName}.`),
    ],
  });
}
