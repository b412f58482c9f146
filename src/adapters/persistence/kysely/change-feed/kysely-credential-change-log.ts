import { type Kysely, sql } from 'kysely';
import type { ChangeLogPage, CredentialChangeLog, LoggedChange } from '../../../../application/ports/credential-change-log';
import {
  PRUNE_CHANGES_SUBJECT, PRUNE_CREDENTIAL_CHANGES, READ_CHANGES_SUBJECT, READ_CREDENTIAL_CHANGES,
} from '../migrations/0010-credential-change-log';
import type { TenantWalls } from '../driver/tenant-walls';
import type { DB } from '../schema';

interface Row {
  readonly log_head: string | number | bigint;
  readonly log_position: string | number | bigint | null;
  readonly log_kind: string | null;
  readonly log_subject: string | null;
  readonly log_tenant: string | null;
}

/** int8 arrives as a string from pg and as a number or bigint from PGlite; positions stay below 2^53. */
function position(value: string | number | bigint): number {
  return Number(value);
}

/** A kind this version does not know (a newer one's) may still be a change: read as "anything may have changed". */
function toChange(row: Row): LoggedChange {
  const at = position(row.log_position!);
  switch (row.log_kind) {
    case 'user': return { position: at, kind: 'user', userId: row.log_subject!, tenantId: row.log_tenant! };
    case 'api_key': return { position: at, kind: 'api-key', keyId: row.log_subject!, tenantId: row.log_tenant! };
    case 'session': return { position: at, kind: 'session', sessionId: row.log_subject!, tenantId: row.log_tenant! };
    case 'service_key': return { position: at, kind: 'service-key', serviceKeyId: row.log_subject! };
    default: return { position: at, kind: 'everything' };
  }
}

/**
 * The change log of migration 0010, read through its one definer function (the app role has no
 * grant on the tables): one statement for the head and a page of changes, on Postgres and PGlite.
 * Both functions want the service's proof, since the log names every tenant's members and keys.
 */
export class KyselyCredentialChangeLog implements CredentialChangeLog {
  private readonly readProof: string;
  private readonly pruneProof: string;

  constructor(private readonly db: Kysely<DB>, walls: TenantWalls) {
    this.readProof = walls.proof(READ_CHANGES_SUBJECT);
    this.pruneProof = walls.proof(PRUNE_CHANGES_SUBJECT);
  }

  async read(after: number, limit: number): Promise<ChangeLogPage> {
    const { rows } = await sql<Row>`select * from ${sql.id(READ_CREDENTIAL_CHANGES)}(${after}, ${limit}, ${this.readProof})`.execute(this.db);
    const head = rows.length > 0 ? position(rows[0]!.log_head) : 0;
    return { head, changes: rows.filter((row) => row.log_position !== null).map(toChange) };
  }

  async prune(): Promise<number> {
    const { rows } = await sql<{ dropped: number }>`select ${sql.id(PRUNE_CREDENTIAL_CHANGES)}(${this.pruneProof}) as dropped`.execute(this.db);
    return Number(rows[0]?.dropped ?? 0);
  }
}
