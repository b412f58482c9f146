import type { MailMessage } from '../../ports/mailer';
import { button, layout, paragraph } from '../layout';
import { consoleLink } from '../links';
import { requireCount, type MailAddressing, type MailContext } from '../mail-input';
import { quantity } from '../wording';

export interface PasswordResetInput extends MailAddressing {
  /** The reset token itself (64 hex): the link carries it. */
  readonly token: string;
  readonly validMinutes: number;
}

/** To a user who asked to reset their password: the link that lets them choose a new one. */
export function passwordResetMail(input: PasswordResetInput, context: MailContext): MailMessage {
  const link = consoleLink(context, 'reset-password', input.token);
  const valid = quantity(requireCount(input.validMinutes, 'validMinutes'), 'minute');
  return layout(input, {
    subject: `Reset your password for ${input.tenantName}`,
    heading: 'Reset your password',
    blocks: [
      paragraph(`Someone asked to reset the password of your account in ${input.tenantName} (${input.to}).`),
      paragraph(`Choose a new password with the link below. It works once, for ${valid}.`),
      button('Choose a new password', link),
      paragraph('If you did not ask for this, ignore this message: your password stays as it is.'),
    ],
  });
}
