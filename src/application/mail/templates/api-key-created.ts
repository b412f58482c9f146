import { API_KEY_LOOKUP_PREFIX_LENGTH } from '../../../domain/api-key';
import type { MailMessage } from '../../ports/mailer';
import { button, layout, paragraph } from '../layout';
import { consoleLink } from '../links';
import { MailInputInvalid, requireInstant, requireText, type MailAddressing, type MailContext } from '../mail-input';
import { formatInstant } from '../wording';

export interface ApiKeyCreatedInput extends MailAddressing {
  /** The key's name, or null when it was given none. */
  readonly keyName: string | null;
  /** The key's stored prefix (the first characters people are shown), never the key itself. */
  readonly keyPrefix: string;
  /** ISO 8601. */
  readonly createdAt: string;
}

/** To the user whose account an API key was created with: the key acts as them. Never the key itself. */
export function apiKeyCreatedMail(input: ApiKeyCreatedInput, context: MailContext): MailMessage {
  const prefix = requireText(input.keyPrefix, 'keyPrefix');
  // A whole key is longer than its prefix: refused here, it cannot reach a mailbox by mistake.
  if (prefix.length > API_KEY_LOOKUP_PREFIX_LENGTH) throw new MailInputInvalid('keyPrefix', `must be at most ${API_KEY_LOOKUP_PREFIX_LENGTH} characters (the prefix, not the key)`);
  if (input.keyName !== null) requireText(input.keyName, 'keyName');
  const at = formatInstant(requireInstant(input.createdAt, 'createdAt'));
  const key = input.keyName === null ? `An API key starting ${prefix}` : `An API key named "${input.keyName}" (starting ${prefix})`;
  return layout(input, {
    subject: `A new API key was created in ${input.tenantName}`,
    heading: 'A new API key was created',
    blocks: [
      paragraph(`${key} was created with your account in ${input.tenantName} (${input.to}) on ${at}. It acts as you, with your role.`),
      paragraph('If you created it, there is nothing to do.'),
      paragraph(`If you did not, revoke it at once on the API keys page, change your password, and tell the owners or admins of ${input.tenantName}.`),
      button('Open the API keys page', consoleLink(context, 'api-keys')),
    ],
  });
}
