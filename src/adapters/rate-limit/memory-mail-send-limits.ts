import { normalizeEmail } from '../../domain/email';
import type { Clock } from '../../application/ports/clock';
import type { MailSendLimits, MailSendPolicy } from '../../application/ports/mail-send-limits';
import { mailSendWindow } from './mail-send-windows';

/**
 * The mail send limits in this process's memory: right for one instance (and for tests); several
 * instances need the Redis adapter, or each would allow the limits on its own. Counts exist only
 * for the current window and only for messages let through, so memory holds at most two entries per
 * message allowed this hour; a new window forgets the last one's.
 */
export class MemoryMailSendLimits implements MailSendLimits {
  private window = Number.NaN;
  private readonly recipients = new Map<string, number>();
  private readonly tenants = new Map<string, number>();

  constructor(private readonly policy: MailSendPolicy, private readonly clock: Clock) {}

  async take(recipient: string, tenantId: string | null): Promise<boolean> {
    const { index } = mailSendWindow(this.clock.now().getTime());
    if (index !== this.window) {
      this.window = index;
      this.recipients.clear();
      this.tenants.clear();
    }
    const address = normalizeEmail(recipient);
    const toRecipient = this.recipients.get(address) ?? 0;
    if (toRecipient >= this.policy.perRecipientPerHour) return false;
    if (tenantId !== null) {
      const forTenant = this.tenants.get(tenantId) ?? 0;
      if (forTenant >= this.policy.perTenantPerHour) return false;
      this.tenants.set(tenantId, forTenant + 1);
    }
    this.recipients.set(address, toRecipient + 1);
    return true;
  }
}
