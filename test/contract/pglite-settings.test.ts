import { sql } from 'kysely';
import { assertPgliteCanLoadInJest, servingTestPglite } from '../support/pglite';

assertPgliteCanLoadInJest();

describe('the embedded database as the service opens it', () => {
  it("keeps a 16 MB buffer cache (its WebAssembly memory never shrinks) and PGlite's own start settings", async () => {
    const { db, close } = await servingTestPglite();
    try {
      const { rows: [settings] } = await sql<{ buffers: string; path: string; workers: string }>`
        select current_setting('shared_buffers') as buffers, current_setting('search_path') as path,
               current_setting('max_worker_processes') as workers`.execute(db);
      expect(settings).toEqual({ buffers: '16MB', path: 'public', workers: '0' });
    } finally {
      await close();
    }
  });
});
