import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createLogger, LOG_OUTPUT } from '../../src/bootstrap/logger';

/** Waits for the destination's next completed write (real I/O, not time passing). */
function nextWrite(destination: ReturnType<typeof pino.destination>): Promise<void> {
  return new Promise((resolve) => destination.once('write', () => resolve()));
}

// docs/operations.md, "Logs": lines leave in batches, a lone line within 100 ms, and a shutdown writes the rest.
describe('log output as production writes it (LOG_OUTPUT)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'portcullis-log-'));
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  });
  afterEach(() => {
    jest.useRealTimers();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds a lone line until the 100 ms flush, then writes it', async () => {
    const file = join(dir, 'out.log');
    const destination = pino.destination({ dest: file, ...LOG_OUTPUT });
    await new Promise((resolve) => destination.once('ready', resolve));
    const { logger, flush } = createLogger({ logLevel: 'info', nodeEnv: 'production' }, destination);
    logger.info('one line');
    expect(readFileSync(file, 'utf8')).toBe(''); // under 4 KB: no write yet
    const written = nextWrite(destination);
    jest.advanceTimersByTime(100);
    await written;
    expect(readFileSync(file, 'utf8')).toContain('"msg":"one line"');
    await flush();
  });

  it('writes once 4 KB are waiting, without waiting for the timer, and writes the rest at shutdown', async () => {
    const file = join(dir, 'out.log');
    const destination = pino.destination({ dest: file, ...LOG_OUTPUT });
    await new Promise((resolve) => destination.once('ready', resolve));
    const { logger, flush } = createLogger({ logLevel: 'info', nodeEnv: 'production' }, destination);
    const written = nextWrite(destination);
    for (let i = 0; i < 40; i += 1) logger.info({ i, padding: 'x'.repeat(100) }, 'a request');
    await written;
    const early = readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
    expect(early).toBeGreaterThan(0);
    logger.info('last');
    await flush();
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(41);
    expect(lines.at(-1)).toContain('"msg":"last"');
  });
});
