import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { REDACT_PATHS } from '../adapters/http/request-log';
import type { Config } from './config';

export interface ServiceLogger {
  readonly logger: Logger;
  /** Writes out whatever is buffered; called last on shutdown, before the process exits. */
  flush(): void;
}

const PRETTY_MODULE = 'pino-pretty';

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
 * JSON lines on stdout, one object per event, redacted (REDACT_PATHS), at LOG_LEVEL. Written
 * asynchronously (sync: false): a line is appended to a buffer and written in batches while the
 * previous write is in progress, so a busy event loop never waits on stdout. Only with
 * NODE_ENV=development, and only when pino-pretty is installed, lines are pretty-printed instead
 * (in a worker thread, by pino's transport).
 *
 * `destination` replaces stdout (tests capture the lines there).
 */
export function createLogger(config: Pick<Config, 'logLevel' | 'nodeEnv'>, destination?: DestinationStream): ServiceLogger {
  const options = baseOptions(config);
  if (destination) {
    const logger = pino(options, destination);
    return { logger, flush: () => logger.flush() };
  }
  if (config.nodeEnv === 'development' && prettyAvailable()) {
    const logger = pino({ ...options, transport: { target: PRETTY_MODULE, options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } } });
    return { logger, flush: () => logger.flush() };
  }
  const stdout = pino.destination({ dest: 1, sync: false });
  const logger = pino(options, stdout);
  return {
    logger,
    flush: () => {
      try {
        stdout.flushSync();
      } catch {
        // stdout is gone (a closed pipe): nothing left to write to.
      }
    },
  };
}
