import type { AuditEvent } from '../../domain/audit-event';
import type { User } from '../../domain/user';
import type { RequestOrigin } from '../audit/audit-trail';
import type { Postbox } from '../mail/postbox';
import type { Clock } from '../ports/clock';
import type { Repositories } from '../ports/repositories';

/**
 * The "new sign-in" notice to a member who signed in from a device their account has not seen,
 * posted in the caller's unit of work with the `login.succeeded` event it describes (its client
 * address and user agent). Nothing is posted when the tenant is gone.
 */
export async function postNewSignInNotice(
  tx: Repositories, deps: { readonly postbox: Postbox; readonly clock: Clock }, user: User, succeeded: AuditEvent, origin: RequestOrigin,
): Promise<void> {
  const tenant = await tx.tenants.findById(user.tenantId);
  if (!tenant) return;
  await deps.postbox.post(tx, {
    tenantId: user.tenantId, userId: user.id,
    mail: {
      kind: 'new-sign-in',
      input: {
        to: user.email, tenantName: tenant.name, signedInAt: deps.clock.now().toISOString(),
        clientAddress: succeeded.clientAddress, userAgent: succeeded.userAgent,
      },
    },
  }, origin);
}
