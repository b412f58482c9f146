import { type Kysely, sql } from 'kysely';
import type { CredentialChange } from '../../../application/ports/credential-states';
import { isUuid } from '../../../domain/ids';
import type { DB } from './schema';

/**
 * The Postgres channel on which every committed credential change is announced. NOTIFY is
 * per database, so services on other databases of one cluster never hear each other.
 */
export const CREDENTIAL_CHANGES_CHANNEL = 'portcullis_credential_changes';

const KINDS: ReadonlySet<string> = new Set<CredentialChange['kind']>(['user', 'api-key']);

export function encodeChange(change: CredentialChange): string {
  return change.kind === 'user' ? `user:${change.userId}` : `api-key:${change.keyId}`;
}

/** Null for anything this version did not write (a newer version's kind, a hand-sent NOTIFY). */
export function decodeChange(payload: string): CredentialChange | null {
  const colon = payload.indexOf(':');
  const kind = payload.slice(0, colon);
  const id = payload.slice(colon + 1);
  if (colon < 0 || !KINDS.has(kind) || !isUuid(id)) return null;
  return kind === 'user' ? { kind, userId: id } : { kind: 'api-key', keyId: id };
}

/**
 * Queues the announcement in the caller's transaction: Postgres delivers a NOTIFY only when its
 * transaction commits, and drops it on rollback, so the change and its announcement are one.
 */
export async function announce(db: Kysely<DB>, change: CredentialChange): Promise<void> {
  await sql`select pg_notify(${CREDENTIAL_CHANGES_CHANNEL}, ${encodeChange(change)})`.execute(db);
}
