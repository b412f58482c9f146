/**
 * How many messages may go out per hour (MAIL_LIMIT_* settings): to one address, whichever tenant
 * sends them, so no flow can be turned into a way of flooding someone's inbox; and for one tenant,
 * so one tenant cannot spend the service's standing with its mail provider.
 */
export interface MailSendPolicy {
  readonly perRecipientPerHour: number;
  readonly perTenantPerHour: number;
}

/**
 * Counts messages about to be sent, per recipient and per tenant, in fixed windows of an hour on
 * the clock (a window's count starts again at the next hour, not an hour after its first message).
 * Addresses are counted in their normalised form (trimmed, lower-case, NFC), so `Jane@Example.com`
 * and `jane@example.com` share one count. An adapter keeps no address in the clear.
 */
export interface MailSendLimits {
  /**
   * One message to `recipient` about `tenantId` (null: a message about no tenant, counted for the
   * recipient only). True when both counts allow one more in the current window: the message is
   * counted, in one atomic step with the check. False when either count is spent: nothing is
   * counted, so a message held back and offered again later does not use up the next window.
   * Throws MailSendLimitsUnavailable when the counts cannot be reached: never a silent true or
   * false, so the caller keeps the message and tries again later.
   */
  take(recipient: string, tenantId: string | null): Promise<boolean>;
}

/** The counters' store failed or answered nonsense; the message stays unsent, to be tried again. */
export class MailSendLimitsUnavailable extends Error {
  constructor(cause: unknown) {
    super('The mail send limits are unavailable', { cause });
    this.name = 'MailSendLimitsUnavailable';
  }
}
