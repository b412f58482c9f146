import { cleanEnv, makeValidator, port, str, url } from 'envalid';

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Postgres through pg when set; otherwise the embedded database in pgliteDir. */
  readonly databaseUrl: string | undefined;
  readonly pgliteDir: string;
  /** Undefined only outside production: main then makes a random one for this process. */
  readonly jwtSecret: string | undefined;
  readonly corsOrigin: string;
  readonly rateLimits: { readonly global: number; readonly login: number; readonly signup: number };
  readonly inviteTtlSeconds: number;
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly logLevel: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

const positiveInt = makeValidator<number>((input) => {
  if (!/^\d+$/.test(input.trim()) || Number(input) < 1 || !Number.isSafeInteger(Number(input))) {
    throw new Error('must be a whole number of at least 1');
  }
  return Number(input);
});

/** Reads and checks the environment; throws ConfigError naming every bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const cleaned = cleanEnv(env, {
    NODE_ENV: str({ choices: ['development', 'production', 'test'] as const, default: 'development' }),
    PORT: port({ default: 3000 }),
    HOST: str({ default: '0.0.0.0' }),
    DATABASE_URL: url({ default: undefined }),
    PGLITE_DIR: str({ default: '.data/pglite' }),
    JWT_SECRET: str({ default: undefined }),
    CORS_ORIGIN: url({ default: 'http://localhost:5173' }),
    RATE_LIMIT_GLOBAL: positiveInt({ default: 100 }),
    RATE_LIMIT_LOGIN: positiveInt({ default: 5 }),
    RATE_LIMIT_SIGNUP: positiveInt({ default: 3 }),
    INVITE_TTL_SECONDS: positiveInt({ default: 604_800 }),
    LOG_LEVEL: str({ choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' }),
  }, {
    reporter: ({ errors }) => {
      for (const [name, error] of Object.entries(errors)) {
        problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  });

  if (cleaned.NODE_ENV === 'production' && !cleaned.JWT_SECRET) {
    problems.push('JWT_SECRET: is required in production');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    port: cleaned.PORT,
    host: cleaned.HOST,
    databaseUrl: cleaned.DATABASE_URL,
    pgliteDir: cleaned.PGLITE_DIR,
    jwtSecret: cleaned.JWT_SECRET,
    corsOrigin: cleaned.CORS_ORIGIN,
    rateLimits: { global: cleaned.RATE_LIMIT_GLOBAL, login: cleaned.RATE_LIMIT_LOGIN, signup: cleaned.RATE_LIMIT_SIGNUP },
    inviteTtlSeconds: cleaned.INVITE_TTL_SECONDS,
    nodeEnv: cleaned.NODE_ENV,
    logLevel: cleaned.LOG_LEVEL,
  };
}
