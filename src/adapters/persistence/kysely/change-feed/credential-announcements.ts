import { type Kysely, sql } from 'kysely';
import type { CredentialChange } from '../../../../application/ports/credential-states';
import { isUuid } from '../../../../domain/ids';
import { CREDENTIAL_CHANGES_CHANNEL, EVERYTHING_CHANGED, PENDING_CHANGES_SETTING } from '../migrations/0005-change-triggers-and-record-tenant';
import type { DB } from '../schema';

/**
 * The database notifies this channel, with an empty payload, whenever a transaction that changed a
 * credential commits (migration 0010): the change log has grown. What changed is read from the log,
 * never from the channel, which anyone who can connect may LISTEN on.
 */
export { CREDENTIAL_CHANGES_CHANNEL };

const KINDS: ReadonlySet<string> = new Set<CredentialChange['kind']>(['user', 'api-key', 'session']);

/** One entry of the transaction-local note (`user:<id>`, `api-key:<id>`, `session:<id>`); null for anything else. */
function decodeChange(payload: string): CredentialChange | null {
  const colon = payload.indexOf(':');
  const kind = payload.slice(0, colon);
  const id = payload.slice(colon + 1);
  if (colon < 0 || !KINDS.has(kind) || !isUuid(id)) return null;
  if (kind === 'user') return { kind, userId: id };
  return kind === 'session' ? { kind, sessionId: id } : { kind: 'api-key', keyId: id };
}

/**
 * The changes the triggers have noted so far in the caller's transaction (a transaction-local
 * setting, migration 0005), to be forgotten on this instance once it commits. A note that grew past
 * its limit says `all` instead (migration 0026): then everything is to be forgotten.
 */
export async function changesMadeIn(trx: Kysely<DB>): Promise<CredentialChange[]> {
  const { rows } = await sql<{ pending: string | null }>`
    select current_setting(${PENDING_CHANGES_SETTING}, true) as pending`.execute(trx);
  const entries = (rows[0]?.pending ?? '').split(' ');
  if (entries.includes(EVERYTHING_CHANGED)) return [{ kind: 'everything' }];
  return entries.map(decodeChange).filter((change): change is CredentialChange => change !== null);
}
