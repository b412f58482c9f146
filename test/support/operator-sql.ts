import { Client } from 'pg';
import type { OperatorSql } from '../http-db/raw-sql-changes-flow';

/** psql, in effect: its own session, as the login user (the schema's owner), outside every instance. */
export async function operator(url: string): Promise<{ sql: OperatorSql; end: () => Promise<void> }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return { sql: async (text, params = []) => (await client.query(text, params)).rows, end: () => client.end() };
}
