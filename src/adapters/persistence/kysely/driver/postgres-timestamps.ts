import { type CustomTypesConfig, types } from 'pg';

/** timestamptz, the type of every time column the service stores. */
const TIMESTAMPTZ_OID = 1184;

const postgresDate = types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (text: string) => Date | number;

const DASH = 45;
const SPACE = 32;
const COLON = 58;
const DOT = 46;
const PLUS = 43;
const MINUS = 45;

/** The number written in `count` digits from `at`, or -1 if any of them is not a digit. */
function digitsAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i += 1) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * A timestamptz as Postgres writes it in text with the ISO DateStyle, the default:
 * `2026-11-21 09:48:58.393123+00`, the fraction optional (up to 6 digits), the offset `±HH`,
 * `±HH:MM` or `±HH:MM:SS`. Read digit by digit, faster than pg's own parser (postgres-date,
 * regular expressions; docs/benchmarks.md, "Figures behind choices in the code"), which matters where a list answers with dozens of them
 * (GET /invites: 40). Anything else (years before 100, BC, infinity, another DateStyle) goes to
 * pg's parser, so the result is always what pg would give: test/unit/postgres-timestamps.test.ts
 * compares the two.
 */
export function parseTimestamptz(text: string): Date | number {
  const length = text.length;
  if (length < 22 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH || text.charCodeAt(10) !== SPACE
    || text.charCodeAt(13) !== COLON || text.charCodeAt(16) !== COLON) return postgresDate(text);
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  // Date.UTC reads years 0-99 as 1900-1999.
  if (year < 100 || (month | day | hour | minute | second) < 0) return postgresDate(text);

  let at = 19;
  let milliseconds = 0;
  if (text.charCodeAt(at) === DOT) {
    at += 1;
    let scale = 100;
    for (let digit = text.charCodeAt(at) - 48; digit >= 0 && digit <= 9; digit = text.charCodeAt(at) - 48) {
      milliseconds += digit * scale;
      scale /= 10;
      at += 1;
    }
    milliseconds = Math.floor(milliseconds);
  }

  const sign = text.charCodeAt(at);
  if (sign !== PLUS && sign !== MINUS) return postgresDate(text);
  const offsetHours = digitsAt(text, at + 1, 2);
  let offsetMinutes = 0;
  let offsetSeconds = 0;
  at += 3;
  if (at < length) {
    if (text.charCodeAt(at) !== COLON) return postgresDate(text);
    offsetMinutes = digitsAt(text, at + 1, 2);
    at += 3;
    if (at < length) {
      if (text.charCodeAt(at) !== COLON) return postgresDate(text);
      offsetSeconds = digitsAt(text, at + 1, 2);
      at += 3;
    }
  }
  if (at !== length || (offsetHours | offsetMinutes | offsetSeconds) < 0) return postgresDate(text);
  const offsetMs = (sign === MINUS ? -1 : 1) * ((offsetHours * 60 + offsetMinutes) * 60 + offsetSeconds) * 1000;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, milliseconds) - offsetMs);
}

/** pg's type parsers, with timestamptz read by parseTimestamptz; for the pool's `types` option. */
export const SERVICE_PG_TYPES: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ_OID && format !== 'binary' ? parseTimestamptz : types.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
};
