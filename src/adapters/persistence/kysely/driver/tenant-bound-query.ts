import { type Connection, Query } from 'pg';

const SET_TENANT_SQL = 'select set_config($1, $2, true)';

/**
 * One statement run behind the tenant wall in one round trip: `set_config(setting, value, true)`
 * and the statement go out together, in the extended protocol, before a single Sync. Postgres runs
 * everything up to a Sync as one implicit transaction, so the setting is transaction-local exactly
 * as after BEGIN: the statement sees it, and it is gone when the Sync commits (or rolls back). If
 * set_config fails, the server skips the statement and the error is this query's. What the one
 * round trip saves over BEGIN, set, statement, COMMIT is measured by scripts/bench/tenant-read.ts
 * (docs/architecture.md, "Tenant-scoped statements in one round trip").
 *
 * Only the statement's rows and command tag are this query's result: set_config's row and its
 * CommandComplete, which come first, are skipped.
 */
export class TenantBoundQuery extends Query {
  private settingAnswered = false;

  constructor(
    private readonly setting: string,
    private readonly value: string,
    text: string,
    values: readonly unknown[],
    callback: (error: Error | null, result?: { command: string; rowCount: number | null; rows: unknown[] }) => void,
  ) {
    // Extended mode even without values: the statement must ride in the same implicit transaction.
    super({ text, values: [...values], queryMode: 'extended', callback } as ConstructorParameters<typeof Query>[0]);
  }

  // pg's submit can refuse a query before writing anything (no text, values not an array, a reused
  // name); none applies here by construction, so set_config is never written without its statement.
  override submit = (connection: Connection): Error | void => {
    // Corked, so the messages of both statements leave in one write (pg's own prepare corks too).
    connection.stream.cork?.();
    try {
      connection.parse({ text: SET_TENANT_SQL, name: '', types: [] }, false);
      connection.bind({ values: [this.setting, this.value] }, false);
      connection.execute({}, false);
      return Query.prototype.submit.call(this, connection) as Error | void;
    } finally {
      connection.stream.uncork?.();
    }
  };

  handleDataRow(message: unknown): void {
    if (!this.settingAnswered) return;
    (Query.prototype as unknown as { handleDataRow(m: unknown): void }).handleDataRow.call(this, message);
  }

  handleCommandComplete(message: unknown, connection: Connection): void {
    if (!this.settingAnswered) {
      this.settingAnswered = true;
      return;
    }
    (Query.prototype as unknown as { handleCommandComplete(m: unknown, c: Connection): void }).handleCommandComplete.call(this, message, connection);
  }
}
