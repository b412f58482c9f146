import type { Storage } from '../../src/adapters/persistence/storage';
import { describeApiKeyCases, describeApiKeyLifecycleCases } from './cases/api-key-cases';
import { describeAuditEventCases } from './cases/audit-event-cases';
import { describeConcurrencyCases } from './cases/concurrency-cases';
import { describeInviteCases } from './cases/invite-cases';
import { describeConcurrentMailCases, describeMailCases } from './cases/mail-cases';
import { describeMemberCases } from './cases/member-cases';
import { describePasskeyCases } from './cases/passkey-cases';
import { describeSessionCases } from './cases/session-cases';
import { describeConcurrentSsoCases, describeSsoCases } from './cases/sso-cases';
import { describeConcurrentSecondFactorCases, describeSecondFactorCases } from './cases/second-factor-cases';
import { describeTenantCases } from './cases/tenant-cases';
import { describeUnitOfWorkCases } from './cases/unit-of-work-cases';
import { describeUserCases } from './cases/user-cases';
import type { StorageGetter } from './storage-fixtures';

export interface StorageContractOptions {
  /** Cases that need real parallel connections (Postgres); elsewhere runs are serialised anyway. */
  readonly concurrent?: boolean;
}

/**
 * The one contract every storage backend keeps. The backend is opened once per file (PGlite's
 * start-up is slow) and every case writes its own fresh records.
 */
export function describeStorageContract(
  name: string,
  open: () => Promise<Storage>,
  opts: StorageContractOptions = {},
): void {
  describe(`storage contract: ${name}`, () => {
    let storage: Storage | undefined;
    beforeAll(async () => {
      storage = await open();
    });
    afterAll(async () => {
      await storage?.close();
    });
    const get: StorageGetter = () => {
      if (!storage) throw new Error(`storage "${name}" did not open`);
      return storage;
    };

    describeUnitOfWorkCases(get);
    describeTenantCases(get);
    describeUserCases(get);
    describeApiKeyCases(get);
    describeApiKeyLifecycleCases(get);
    describeMemberCases(get);
    describeInviteCases(get);
    describeAuditEventCases(get);
    describeMailCases(get);
    describeSessionCases(get);
    describePasskeyCases(get);
    describeSecondFactorCases(get);
    describeSsoCases(get);
    if (opts.concurrent) {
      describeConcurrencyCases(get);
      describeConcurrentMailCases(get);
      describeConcurrentSecondFactorCases(get);
      describeConcurrentSsoCases(get);
    }
  });
}
