import type { MailMessage } from '../../ports/mailer';
import { button, layout, paragraph } from '../layout';
import { consoleLink } from '../links';
import { requireCount, type MailAddressing, type MailContext } from '../mail-input';
import { quantity } from '../wording';

export interface VerifyEmailInput extends MailAddressing {
  /** The verification token itself (64 hex): the link carries it. */
  readonly token: string;
  readonly validHours: number;
}

/** To a new account's address: the link that proves the address is theirs. */
export function verifyEmailMail(input: VerifyEmailInput, context: MailContext): MailMessage {
  const link = consoleLink(context, 'verify-email', input.token);
  const valid = quantity(requireCount(input.validHours, 'validHours'), 'hour');
  return layout(input, {
    subject: `Confirm your e-mail address for ${input.tenantName}`,
    heading: 'Confirm your e-mail address',
    blocks: [
      paragraph(`Confirm that ${input.to} is the address of your account in ${input.tenantName}.`),
      paragraph(`The link below works once, for ${valid}.`),
      button('Confirm my address', link),
      paragraph(`If you did not create an account in ${input.tenantName}, ignore this message.`),
    ],
  });
}
