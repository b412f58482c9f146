import type { MailMessage } from '../../ports/mailer';
import { button, layout, paragraph } from '../layout';
import { consoleLink } from '../links';
import { optionalText, requireInstant, type MailAddressing, type MailContext } from '../mail-input';
import { formatInstant } from '../wording';

/** Longer than any browser's own: the rest of a user agent a client chose to send is cut. */
export const SIGN_IN_USER_AGENT_SHOWN = 200;

export interface NewSignInInput extends MailAddressing {
  /** ISO 8601. */
  readonly signedInAt: string;
  /** The client address the sign-in came from, as the service saw it; null when unknown. */
  readonly clientAddress: string | null;
  /** The client's own User-Agent header, as it sent it (anyone can write anything there); null when none. */
  readonly userAgent: string | null;
}

/** Line breaks and invisible characters in a header the client wrote would forge lines in the text part. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;

function shownUserAgent(userAgent: string | null): string {
  if (userAgent === null) return 'an app that did not say what it is';
  const cleaned = userAgent.replace(HIDDEN, ' ').trim();
  const cut = cleaned.length > SIGN_IN_USER_AGENT_SHOWN ? `${cleaned.slice(0, SIGN_IN_USER_AGENT_SHOWN)}…` : cleaned;
  return cut === '' ? 'an app that did not say what it is' : `"${cut}"`;
}

/**
 * After a sign-in from a device that had not signed in to this account before (it sent no valid
 * device proof). Says when, from where and with what the client called itself; never a token or
 * the proof. The user agent is whatever the client sent: shown quoted, cleaned and cut, and escaped
 * with everything else by the layout.
 */
export function newSignInMail(input: NewSignInInput, context: MailContext): MailMessage {
  const at = formatInstant(requireInstant(input.signedInAt, 'signedInAt'));
  const address = optionalText(input.clientAddress, 'clientAddress') ?? 'an address that was not recorded';
  const agent = shownUserAgent(optionalText(input.userAgent, 'userAgent'));
  return layout(input, {
    subject: `New sign-in to your account in ${input.tenantName}`,
    heading: 'A new device signed in to your account',
    blocks: [
      paragraph(`On ${at}, your account in ${input.tenantName} (${input.to}) was signed in to from a device or browser that had not signed in before.`),
      paragraph(`It came from ${address}, using ${agent}.`),
      paragraph('If you signed in, there is nothing to do: this device will be recognised next time.'),
      paragraph(`If you did not, someone else knows your password: reset it from the sign-in page and tell the owners or admins of ${input.tenantName}.`),
      button('Go to the sign-in page', consoleLink(context, 'login')),
    ],
  });
}
