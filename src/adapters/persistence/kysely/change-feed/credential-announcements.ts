import { type Kysely, sql } from 'kysely';
import type { CredentialChange } from '../../../../application/ports/credential-states';
import { isUuid } from '../../../../domain/ids';
import { CREDENTIAL_CHANGES_CHANNEL, PENDING_CHANGES_SETTING } from '../migrations/0005-change-triggers-and-record-tenant';
import type { DB } from '../schema';

/**
 * The database announces every committed credential change itself (triggers, migration 0005) on
 * this channel, as `user:<id>` or `api-key:<id>`; the service never announces one by hand.
 */
export { CREDENTIAL_CHANGES_CHANNEL };

const KINDS: ReadonlySet<string> = new Set<CredentialChange['kind']>(['user', 'api-key']);

export function encodeChange(change: CredentialChange): string {
  return change.kind === 'user' ? `user:${change.userId}` : `api-key:${change.keyId}`;
}

/** Null for anything this version cannot read (a newer version's kind, a TRUNCATE's `all`, a hand-sent NOTIFY). */
export function decodeChange(payload: string): CredentialChange | null {
  const colon = payload.indexOf(':');
  const kind = payload.slice(0, colon);
  const id = payload.slice(colon + 1);
  if (colon < 0 || !KINDS.has(kind) || !isUuid(id)) return null;
  return kind === 'user' ? { kind, userId: id } : { kind: 'api-key', keyId: id };
}

/**
 * The changes the triggers have announced so far in the caller's transaction (they note each one in
 * a transaction-local setting), to be forgotten on this instance once it commits.
 */
export async function changesMadeIn(trx: Kysely<DB>): Promise<CredentialChange[]> {
  const { rows } = await sql<{ pending: string | null }>`
    select current_setting(${PENDING_CHANGES_SETTING}, true) as pending`.execute(trx);
  const pending = rows[0]?.pending ?? '';
  return pending.split(' ').map(decodeChange).filter((change): change is CredentialChange => change !== null);
}
