import type { AuditEvent } from '../../domain/audit-event';
import type { User } from '../../domain/user';
import type { RequestOrigin } from '../audit/audit-trail';
import type { Postbox } from '../mail/postbox';
import type { Clock } from '../ports/clock';
import type { Repositories } from '../ports/repositories';

/** The "new sign-in" notice of a full sign-in from a device the account has not seen, in the sign-in's unit of work (ASVS V6.3.5). */
export async function postNewSignInNotice(
  postbox: Postbox, clock: Clock, tx: Repositories, user: User, succeeded: Pick<AuditEvent, 'clientAddress' | 'userAgent'>, origin: RequestOrigin,
): Promise<void> {
  const tenant = await tx.tenants.findById(user.tenantId);
  if (!tenant) return;
  await postbox.post(tx, {
    tenantId: user.tenantId, userId: user.id,
    mail: {
      kind: 'new-sign-in',
      input: {
        to: user.email, tenantName: tenant.name, signedInAt: clock.now().toISOString(),
        clientAddress: succeeded.clientAddress, userAgent: succeeded.userAgent,
      },
    },
  }, origin);
}
