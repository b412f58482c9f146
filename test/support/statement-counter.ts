import { Client } from 'pg';

export type SqlBackend = 'postgres' | 'pglite';

/**
 * The statements sent to the database while `work` runs, in order, as the driver hands them over:
 * on Postgres every pg Client query, on PGlite every query of the embedded session, transaction
 * control included.
 */
export async function statementsDuring(backend: SqlBackend, work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const spy = backend === 'postgres' ? spyOnPg(sent) : await spyOnPglite(sent);
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return sent;
}

function spyOnPg(sent: string[]) {
  const original = Client.prototype.query;
  return jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    const [first] = args;
    // pg's Query keeps its SQL in `text`, which its type declarations leave out.
    const text = typeof first === 'string' ? first : String((first as { text?: unknown }).text);
    sent.push(text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
}

async function spyOnPglite(sent: string[]) {
  const { PGlite } = await import('@electric-sql/pglite');
  const original = PGlite.prototype.query;
  return jest.spyOn(PGlite.prototype, 'query').mockImplementation(function (this: InstanceType<typeof PGlite>, ...args: unknown[]) {
    sent.push(String(args[0]));
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
}
