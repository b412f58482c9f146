import type { MailMessage } from '../../ports/mailer';
import { button, layout, paragraph } from '../layout';
import { consoleLink } from '../links';
import { requireCount, type MailAddressing, type MailContext } from '../mail-input';
import { quantity } from '../wording';

export interface EmailChangeConfirmInput extends MailAddressing {
  /** `to` is the NEW address; the token (64 hex) proves it is theirs. */
  readonly token: string;
  readonly validHours: number;
}

/** To the address a user wants to move to: the link that confirms it. The old address is not shown. */
export function emailChangeConfirmMail(input: EmailChangeConfirmInput, context: MailContext): MailMessage {
  const link = consoleLink(context, 'confirm-email', input.token);
  const valid = quantity(requireCount(input.validHours, 'validHours'), 'hour');
  return layout(input, {
    subject: `Confirm your new e-mail address for ${input.tenantName}`,
    heading: 'Confirm your new e-mail address',
    blocks: [
      paragraph(`Someone asked to make ${input.to} the address of an account in ${input.tenantName}.`),
      paragraph(`Confirm it with the link below. It works once, for ${valid}; until then the account keeps its current address.`),
      button('Confirm this address', link),
      paragraph('If you did not ask for this, ignore this message: nothing changes.'),
    ],
  });
}
