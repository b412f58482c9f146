import type { MailMessage } from '../../ports/mailer';
import { button, layout, paragraph } from '../layout';
import { consoleLink } from '../links';
import { MailInputInvalid, requireInstant, type MailAddressing, type MailContext } from '../mail-input';
import { formatInstant } from '../wording';

/** The factor a notice is about, as the member is told it. */
const FACTOR_NAMES = { totp: 'An authenticator app', all: 'Every second factor' } as const;
export type NoticeFactor = keyof typeof FACTOR_NAMES;

function factorName(value: unknown): string {
  if (typeof value !== 'string' || !Object.hasOwn(FACTOR_NAMES, value)) throw new MailInputInvalid('factor', 'is not a known factor');
  return FACTOR_NAMES[value as NoticeFactor];
}

export interface SecondFactorAddedInput extends MailAddressing {
  readonly factor: NoticeFactor;
  /** ISO 8601. */
  readonly at: string;
}

export interface SecondFactorRemovedInput extends SecondFactorAddedInput {
  /** True when an owner or admin removed it, not the member. */
  readonly byAdmin: boolean;
}

/** After a member added a second factor to their account. */
export function secondFactorAddedMail(input: SecondFactorAddedInput, context: MailContext): MailMessage {
  const at = formatInstant(requireInstant(input.at, 'at'));
  const name = factorName(input.factor);
  return layout(input, {
    subject: `A second factor was added to your account in ${input.tenantName}`,
    heading: 'A second factor was added',
    blocks: [
      paragraph(`On ${at}, ${name.toLowerCase()} was set up as a second factor for your account in ${input.tenantName} (${input.to}).`),
      paragraph('If you set it up, there is nothing to do.'),
      paragraph(`If you did not, someone else may be signed in as you: reset your password from the sign-in page and tell the owners or admins of ${input.tenantName}.`),
      button('Go to the sign-in page', consoleLink(context, 'login')),
    ],
  });
}

/** After a second factor of a member was removed, by them or by an owner or admin. */
export function secondFactorRemovedMail(input: SecondFactorRemovedInput, context: MailContext): MailMessage {
  const at = formatInstant(requireInstant(input.at, 'at'));
  const name = factorName(input.factor);
  const who = input.byAdmin === true ? `by an owner or admin of ${input.tenantName}` : 'from your account';
  return layout(input, {
    subject: `A second factor was removed from your account in ${input.tenantName}`,
    heading: 'A second factor was removed',
    blocks: [
      paragraph(`On ${at}, ${name.toLowerCase()} of your account in ${input.tenantName} (${input.to}) was removed ${who}.`),
      paragraph(input.byAdmin === true
        ? 'You were signed out everywhere. Sign in with your password, and set up a second factor again.'
        : 'If you removed it, there is nothing to do.'),
      paragraph(`If you did not expect this, tell the owners or admins of ${input.tenantName}.`),
      button('Go to the sign-in page', consoleLink(context, 'login')),
    ],
  });
}
