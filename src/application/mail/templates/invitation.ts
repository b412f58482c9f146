import type { InvitableRole } from '../../../domain/role';
import type { MailMessage } from '../../ports/mailer';
import { button, layout, paragraph } from '../layout';
import { consoleLink } from '../links';
import { MailInputInvalid, requireInstant, requireRole, requireText, type MailAddressing, type MailContext } from '../mail-input';
import { formatInstant, roleWithArticle } from '../wording';

interface InvitationBase extends MailAddressing {
  /** The address of whoever sent the invitation. */
  readonly inviterEmail: string;
  readonly role: InvitableRole;
}

/**
 * An invitation to join a tenant. When the address already belongs to an account in another
 * tenant (registeredElsewhere), it cannot be accepted with that address: the message says so and
 * carries no link, and has no token to carry. It never names the other tenant.
 */
export type InvitationInput =
  | (InvitationBase & {
    readonly registeredElsewhere: false;
    /** The invite token itself (64 hex): the link carries it. */
    readonly token: string;
    /** ISO 8601, such as 2030-01-31T14:00:00.000Z. */
    readonly expiresAt: string;
  })
  | (InvitationBase & { readonly registeredElsewhere: true });

export function invitationMail(input: InvitationInput, context: MailContext): MailMessage {
  const inviter = requireText(input.inviterEmail, 'inviterEmail');
  const role = roleWithArticle(requireRole(input.role, 'role'));
  const invited = paragraph(`${inviter} invited you (${input.to}) to join ${input.tenantName} as ${role}.`);
  const subject = `You are invited to join ${input.tenantName}`;
  if (input.registeredElsewhere === true) {
    return layout(input, {
      subject,
      heading: `Join ${input.tenantName}`,
      blocks: [
        invited,
        paragraph('This address already belongs to an account, and an address belongs to one organization only, so the invitation cannot be accepted with it. If you are already a member of this organization, sign in as usual.'),
        paragraph(`To join ${input.tenantName}, ask ${inviter} to invite another of your addresses.`),
        paragraph(`If you do not know ${inviter}, ignore this message.`),
      ],
    });
  }
  if (input.registeredElsewhere !== false) throw new MailInputInvalid('registeredElsewhere', 'must be true or false');
  const link = consoleLink(context, 'join', input.token);
  const expires = formatInstant(requireInstant(input.expiresAt, 'expiresAt'));
  return layout(input, {
    subject,
    heading: `Join ${input.tenantName}`,
    blocks: [
      invited,
      paragraph(`Accept with the link below before ${expires}. It works once.`),
      button('Accept the invitation', link),
      paragraph(`If you do not know ${inviter} or do not want to join, ignore this message.`),
    ],
  });
}
