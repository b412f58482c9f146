import type { MailMessage } from '../ports/mailer';
import { MailInputInvalid, type MailContext } from './mail-input';
import { apiKeyCreatedMail, type ApiKeyCreatedInput } from './templates/api-key-created';
import { emailChangeConfirmMail, type EmailChangeConfirmInput } from './templates/email-change-confirm';
import { emailChangedNoticeMail, type EmailChangedNoticeInput } from './templates/email-changed-notice';
import { invitationMail, type InvitationInput } from './templates/invitation';
import { memberRemovedMail, type MemberRemovedInput } from './templates/member-removed';
import { newSignInMail, type NewSignInInput } from './templates/new-sign-in';
import { passkeyAddedMail, type PasskeyAddedInput } from './templates/passkey-added';
import { passkeyRemovedMail, type PasskeyRemovedInput } from './templates/passkey-removed';
import { passwordChangedMail, type PasswordChangedInput } from './templates/password-changed';
import { passwordResetMail, type PasswordResetInput } from './templates/password-reset';
import { passwordResetDoneMail, type PasswordResetDoneInput } from './templates/password-reset-done';
import { roleChangedMail, type RoleChangedInput } from './templates/role-changed';
import {
  secondFactorAddedMail, type SecondFactorAddedInput, secondFactorRemovedMail, type SecondFactorRemovedInput,
} from './templates/second-factor-changed';
import { verifyEmailMail, type VerifyEmailInput } from './templates/verify-email';

/**
 * Every message the service sends, by kind, with the input its template takes. Inputs are plain
 * JSON data (strings, numbers, booleans, null; instants as ISO 8601 strings), so an outbox row can
 * hold a kind and its input and have it rendered when it is delivered; rendering is deterministic.
 * No input has a field for a password or a whole API key, so no message can carry one.
 */
export interface MailInputs {
  'password-reset': PasswordResetInput;
  'verify-email': VerifyEmailInput;
  'invitation': InvitationInput;
  'email-change-confirm': EmailChangeConfirmInput;
  'email-changed-notice': EmailChangedNoticeInput;
  'password-changed': PasswordChangedInput;
  'password-reset-done': PasswordResetDoneInput;
  'api-key-created': ApiKeyCreatedInput;
  'role-changed': RoleChangedInput;
  'member-removed': MemberRemovedInput;
  'new-sign-in': NewSignInInput;
  'passkey-added': PasskeyAddedInput;
  'passkey-removed': PasskeyRemovedInput;
  'second-factor-added': SecondFactorAddedInput;
  'second-factor-removed': SecondFactorRemovedInput;
}

export type MailKind = keyof MailInputs;

/** A message to send, as an outbox stores it: which template, and its input. */
export type MailTemplate = { [K in MailKind]: { readonly kind: K; readonly input: MailInputs[K] } }[MailKind];

const TEMPLATES: { readonly [K in MailKind]: (input: MailInputs[K], context: MailContext) => MailMessage } = {
  'password-reset': passwordResetMail,
  'verify-email': verifyEmailMail,
  'invitation': invitationMail,
  'email-change-confirm': emailChangeConfirmMail,
  'email-changed-notice': emailChangedNoticeMail,
  'password-changed': passwordChangedMail,
  'password-reset-done': passwordResetDoneMail,
  'api-key-created': apiKeyCreatedMail,
  'role-changed': roleChangedMail,
  'member-removed': memberRemovedMail,
  'new-sign-in': newSignInMail,
  'passkey-added': passkeyAddedMail,
  'passkey-removed': passkeyRemovedMail,
  'second-factor-added': secondFactorAddedMail,
  'second-factor-removed': secondFactorRemovedMail,
};

export const MAIL_KINDS = Object.keys(TEMPLATES) as readonly MailKind[];

export function isMailKind(value: unknown): value is MailKind {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(TEMPLATES, value);
}

/**
 * The message of that kind for that input. Every field a template reads is checked as it is read,
 * since a stored input is only as typed as the JSON it came from: throws MailInputInvalid naming
 * the field (or `kind`) rather than render a message with a hole in it.
 */
export function renderMail<K extends MailKind>(kind: K, input: MailInputs[K], context: MailContext): MailMessage {
  if (!isMailKind(kind)) throw new MailInputInvalid('kind', 'is not a known mail template');
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new MailInputInvalid('input', 'must be an object');
  const render = TEMPLATES[kind] as (input: MailInputs[K], context: MailContext) => MailMessage;
  return render(input, context);
}

/** renderMail for a row read back from storage: kind and input as parsed from JSON. */
export function renderStoredMail(kind: string, input: unknown, context: MailContext): MailMessage {
  if (!isMailKind(kind)) throw new MailInputInvalid('kind', `"${kind}" is not a known mail template`);
  return renderMail(kind, input as MailInputs[typeof kind], context);
}
