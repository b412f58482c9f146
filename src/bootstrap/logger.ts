import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { REDACT_PATHS } from '../adapters/http/middleware/request-log';
import type { Config } from './config';

export interface ServiceLogger {
  readonly logger: Logger;
  /**
   * Writes out whatever is buffered, in order; called last, before the process exits. Settles
   * within FLUSH_TIMEOUT_MS even when the output is a stuck or closed pipe. Nothing may be logged
   * after it (the stdout stream is ended).
   */
  flush(): Promise<void>;
}

const PRETTY_MODULE = 'pino-pretty';

/** The longest the last lines may take to be written before the process exits anyway. */
const FLUSH_TIMEOUT_MS = 1_000;

/** Runs `start(done)` and settles when it calls done, or after FLUSH_TIMEOUT_MS, whichever is first. */
function settled(start: (done: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FLUSH_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    try {
      start(done);
    } catch {
      done(); // the output is gone (a closed pipe): nothing left to write to
    }
  });
}

function baseOptions(config: Pick<Config, 'logLevel'>): LoggerOptions {
  return {
    level: config.logLevel,
    base: { service: 'portcullis' },
    // "info" rather than 30: readable without pino's table, and what log pipelines match on.
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: [...REDACT_PATHS] },
  };
}

/** pino-pretty is a devDependency: present in a development checkout, absent from a production install. */
function prettyAvailable(): boolean {
  try {
    require.resolve(PRETTY_MODULE);
    return true;
  } catch {
    return false;
  }
}

/**
 * How lines leave for stdout: asynchronously (a busy event loop never waits on stdout), and in
 * batches: a write starts once 4 KB are waiting, or at the latest every 100 ms. Each write is
 * handed to libuv's thread pool and back; batched, one carries about ten request lines instead of
 * one. What that saves depends on how busy the machine's cores are (docs/benchmarks.md, "Request
 * logs written in batches"). `scripts/bench/service-server.ts` writes its lines the same way, so
 * the benchmarks count this cost as production pays it.
 */
export const LOG_OUTPUT = { sync: false, minLength: 4096, periodicFlush: 100 } as const;

/**
 * JSON lines on stdout, one object per event, redacted (REDACT_PATHS), at LOG_LEVEL, written as
 * LOG_OUTPUT says: a line reaches stdout within 100 ms, and a crash can lose that much. Only with
 * NODE_ENV=development, and only when pino-pretty is installed, lines are pretty-printed instead
 * (in a worker thread, by pino's transport).
 *
 * `destination` replaces stdout (tests capture the lines there).
 */
export function createLogger(config: Pick<Config, 'logLevel' | 'nodeEnv'>, destination?: DestinationStream): ServiceLogger {
  const options = baseOptions(config);
  if (destination) {
    const logger = pino(options, destination);
    return { logger, flush: () => settled((done) => logger.flush(done)) };
  }
  if (config.nodeEnv === 'development' && prettyAvailable()) {
    const logger = pino({ ...options, transport: { target: PRETTY_MODULE, options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } } });
    return { logger, flush: () => settled((done) => logger.flush(done)) };
  }
  const stdout = pino.destination({ dest: 1, ...LOG_OUTPUT });
  const logger = pino(options, stdout);
  // Ending the stream, not flushSync: flushSync writes the buffer at once, overtaking a write still
  // in progress on libuv's pool, so the last lines (a closed resource, "shutdown complete") could
  // come out of order, or be lost when the process exits before that write lands. end() waits for
  // it, writes the rest, and emits 'close'.
  let ended: Promise<void> | undefined;
  const flush = (): Promise<void> => {
    ended ??= settled((done) => {
      stdout.once('close', done);
      stdout.once('error', done);
      stdout.end();
    });
    return ended;
  };
  return { logger, flush };
}
