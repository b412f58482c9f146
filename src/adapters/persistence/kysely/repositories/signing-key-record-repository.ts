import { sql } from 'kysely';
import type { SigningKeyRecordRepository } from '../../../../application/ports/signing-key-records';
import { SIGNING_KEY_STATES, type SigningKeyRecord, type SigningKeyState } from '../../../../domain/signing-key-state';
import type { TenantScope } from '../driver/tenant-scope';

function isState(value: string): value is SigningKeyState {
  return (SIGNING_KEY_STATES as readonly string[]).includes(value);
}

/**
 * The signing_keys table (migration 0016): no tenant, no wall. SHARE ROW EXCLUSIVE conflicts with
 * itself and with every write, so a second recorder's lock waits until the first one's transaction
 * ends, and then reads what it wrote; plain readers are not held up.
 */
export class KyselySigningKeyRecordRepository implements SigningKeyRecordRepository {
  constructor(private readonly scope: TenantScope) {}

  async lockAndList(): Promise<SigningKeyRecord[]> {
    const { db } = this.scope;
    // Outside a transaction a lock would end with its own statement: nothing to hold it for.
    if (db.isTransaction) await sql`lock table signing_keys in share row exclusive mode`.execute(db);
    const rows = await db.selectFrom('signing_keys').select(['key_id', 'state']).execute();
    return rows.map((row) => {
      if (!isState(row.state)) throw new Error(`signing_keys holds an unknown state: ${row.state}`);
      return { keyId: row.key_id, state: row.state };
    });
  }

  async save(records: readonly SigningKeyRecord[], at: Date): Promise<void> {
    if (records.length === 0) return;
    // The signing key steps down first: the index allows one signing row at a time.
    const ordered = [...records].sort((a, b) => Number(a.state === 'signing') - Number(b.state === 'signing'));
    for (const record of ordered) {
      await this.scope.db.insertInto('signing_keys')
        .values({ key_id: record.keyId, state: record.state, changed_at: at })
        .onConflict((conflict) => conflict.column('key_id').doUpdateSet({ state: record.state, changed_at: at }))
        .execute();
    }
  }
}
