import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../../src/bootstrap/logger';

export interface CapturedLog {
  readonly logger: Logger;
  /** Every line written so far, parsed. */
  readonly lines: Array<Record<string, unknown>>;
  /** Every line written so far, as written. */
  readonly raw: string[];
}

/** The service's own logger (same options, redaction included), writing into memory instead of stdout. */
export function captureLog(level = 'info'): CapturedLog {
  const raw: string[] = [];
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  const { logger } = createLogger({ logLevel: level, nodeEnv: 'production' }, stream);
  return { logger, lines, raw };
}
