import http from 'node:http';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';

/**
 * Inputs for the fuzz suites: strings that break naive code, JSON of any shape, raw bodies under any
 * Content-Type, and the header values and paths an HTTP/1.1 client can actually put on the wire.
 */

const char = (min: number, max: number): fc.Arbitrary<string> => fc.integer({ min, max }).map((code) => String.fromCharCode(code));

/** Controls (NUL included), DEL, lone surrogate halves, bidi overrides, zero-width and line separators, quotes. */
export const nastyChar: fc.Arbitrary<string> = fc.oneof(
  char(0x00, 0x1f),
  char(0xd800, 0xdfff),
  fc.constantFrom('\u007f', '\u0085', '\u00a0', '\u200b', '\u200e', '\u202e', '\u2028', '\u2029', '\ufeff', '\ufffd', '\uffff',
    '"', '\\', '/', '%', "'", '<', '>', '&', '`', '$', '{', '}'),
);

/** One unit of a fuzzed string: mostly printable ASCII, then any code point, graphemes and the nasty ones. */
const anyChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: nastyChar },
);

const SPECIAL_STRINGS = [
  '', ' ', '\u0000', 'null', 'undefined', 'true', 'NaN', '0', '-1', '[]', '{}', '__proto__', 'constructor', 'prototype',
  "' OR '1'='1", '"; DROP TABLE users; --', '${7*7}', '{{7*7}}', '%s%s%n', '../../etc/passwd', 'a@b.co\u0000x', '\u202eoc.b@a',
];

/** A string of up to 150 k characters: past the 100 kB body limit, which must answer 413, not fall over. */
export const hugeString: fc.Arbitrary<string> = fc.constantFrom(1025, 5_000, 99_000, 150_000).map((n) => 'x'.repeat(n));

/** Short enough for any header (Node refuses a head over 16 kB itself, with a bare 431). */
export const shortNastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: anyChar, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
);

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: anyChar, maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: anyChar, minLength: 100, maxLength: 1500 }) },
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 1, arbitrary: hugeString },
);

export const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 4, stringUnit: anyChar });

/** An e-mail-ish value: real addresses (some in odd case or padded), near-misses and garbage. */
export function emailish(known: readonly string[] = []): fc.Arbitrary<string> {
  const address = fc.emailAddress();
  return fc.oneof(
    address,
    address.map((email) => email.toUpperCase()),
    address.map((email) => ` ${email}\t`),
    fc.tuple(nastyString, address).map(([junk, email]) => `${junk}${email}`),
    nastyString.map((junk) => `${junk}@example.com`),
    nastyString,
    ...(known.length > 0 ? [fc.constantFrom(...known), fc.constantFrom(...known).map((email) => email.toUpperCase())] : []),
  );
}

export const passwordish: fc.Arbitrary<string> = fc.oneof(fc.string({ minLength: 8, maxLength: 64 }), fc.string({ unit: anyChar, minLength: 8 }), nastyString);

/**
 * An object with an endpoint's own keys, each either of a plausible kind or any JSON at all, each
 * possibly missing, sometimes with unknown keys beside them.
 */
export function fieldsObject(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(fields).map(([key, plausible]) =>
    [key, fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 1, arbitrary: anyJson })] as const);
  const own = fc.record(Object.fromEntries(entries), { requiredKeys: [] });
  const extra = fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), anyJson, { maxKeys: 2 }) });
  return fc.tuple(extra, own).map(([more, mine]) => ({ ...more, ...mine }));
}

/** A body as bytes on the wire, with the headers that describe it. */
export interface WireBody {
  readonly body?: string | Uint8Array | undefined;
  readonly headers: Record<string, string>;
}

const JSON_TYPE = { 'content-type': 'application/json' };

const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON; CHARSET=UTF-8', 'application/json; charset="utf-8"',
  'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/json; charset=nope', 'application/json;;',
  'application/json; boundary=x', 'application/merge-patch+json', 'application/vnd.api+json', 'application/ld+json', 'text/json',
  'text/plain', 'text/html', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/octet-stream',
  '*/*', 'application/*', 'application/', '/', ';', '', 'json',
];

/** Header values Node's client will send: tab, printable ASCII and Latin-1 (obs-text). */
export const headerChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: char(0x20, 0x7e) },
  { weight: 1, arbitrary: fc.constant('\t') },
  { weight: 2, arbitrary: char(0x80, 0xff) },
);

export const headerValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: headerChar, maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: headerChar, minLength: 200, maxLength: 2000 }) },
).filter(isSendableHeaderValue);

function isSendableHeaderValue(value: string): boolean {
  try {
    http.validateHeaderValue('x-fuzz', value);
    return true;
  } catch {
    return false;
  }
}

export const contentType: fc.Arbitrary<string> = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: headerValue });

/** The JSON text of a value, or text that is almost JSON, or not at all. */
export const jsonText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: anyJson.map((value) => JSON.stringify(value)) },
  // Nesting far past the depth limit, in arrays and in objects.
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 30_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5_000 }).map((depth) => `${'{"email":'.repeat(depth)}1${'}'.repeat(depth)}`) },
  // Keys that would change a prototype once copied, at the top or nested.
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype'), anyJson, fc.boolean())
    .map(([key, value, nested]) => (nested ? `{"email":{"${key}":${JSON.stringify(value)}}}` : `{"${key}":${JSON.stringify(value)}}`)) },
  // Duplicate keys, numbers JSON.parse turns into Infinity, and truncated or broken JSON.
  { weight: 1, arbitrary: fc.constantFrom('{"email":"a@b.co","email":{"x":1}}', '{"password":1e999}', '{"email":-0}', '{"a":1,}', '{', '"', '\uFEFF{}', 'nul', '{"email":"\\ud800"}') },
  { weight: 2, arbitrary: anyJson.chain((value) => {
    const text = JSON.stringify(value);
    return fc.nat({ max: Math.max(0, text.length - 1) }).map((cut) => text.slice(0, cut));
  }) },
  { weight: 1, arbitrary: nastyString },
);

/**
 * A request body: mostly JSON under a JSON Content-Type, with the fields an endpoint expects when
 * given, and also raw text or bytes under any Content-Type, compressed bodies, or no body at all.
 */
export function wireBody(objects?: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<WireBody> {
  const json = (text: fc.Arbitrary<string>): fc.Arbitrary<WireBody> => text.map((body) => ({ body, headers: { ...JSON_TYPE } }));
  return fc.oneof(
    ...(objects ? [{ weight: 8, arbitrary: json(objects.map((value) => JSON.stringify(value))) }] : []),
    { weight: 3, arbitrary: json(jsonText) },
    { weight: 2, arbitrary: fc.tuple(jsonText, contentType).map(([body, type]) => ({ body, headers: { 'content-type': type } })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((body) => ({ body, headers: { ...JSON_TYPE } })) },
    { weight: 1, arbitrary: fc.tuple(objects ?? anyJson, fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'gzip, gzip', 'x-snappy', ''))
      .map(([value, encoding]) => ({
        // The header says gzip; the bytes are gzip only when it says exactly that, else a lie to catch.
        body: encoding === 'gzip' ? gzipSync(JSON.stringify(value)) : JSON.stringify(value),
        headers: { ...JSON_TYPE, 'content-encoding': encoding },
      })) },
    { weight: 1, arbitrary: fc.constantFrom<WireBody>({ headers: {} }, { body: '', headers: { ...JSON_TYPE } }, { headers: { ...JSON_TYPE } }) },
  );
}

/** Handled by Node's HTTP server before the app (framing, Expect: 417, Upgrade): out of the app's reach. */
const FRAMING_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'expect', 'keep-alive',
  'te', 'trailer', 'proxy-connection', 'http2-settings']);

const TOKEN_CHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split('');

export const headerName: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 1, maxLength: 20 }),
  fc.constantFrom('origin', 'access-control-request-method', 'access-control-request-headers', 'accept', 'accept-encoding',
    'accept-charset', 'cookie', 'range', 'if-none-match', 'if-modified-since', 'x-forwarded-for', 'x-forwarded-proto',
    'x-forwarded-host', 'forwarded', 'x-real-ip', 'x-http-method-override', 'x-original-url', 'x-rewrite-url', 'referer',
    'user-agent', 'content-type', 'content-encoding', 'content-language', 'X-API-KEY', 'AUTHORIZATION'),
).filter((name) => !FRAMING_HEADERS.has(name.toLowerCase()));

/** Extra headers of any name and value; `except` keeps some names out (credentials a suite controls itself). */
export function extraHeaders(except: readonly string[] = []): fc.Arbitrary<Record<string, string>> {
  const names = except.length === 0 ? headerName : headerName.filter((name) => !except.includes(name.toLowerCase()));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({}) },
    { weight: 3, arbitrary: fc.dictionary(names, headerValue, { maxKeys: 4 }) },
  );
}

/** Every method Node's HTTP parser knows; CONNECT is a tunnel, answered by Node itself, not the app. */
export const httpMethod: fc.Arbitrary<string> = fc.constantFrom(...http.METHODS.filter((method) => method !== 'CONNECT'));

/**
 * One path segment, as it appears on the wire: well-formed, percent-encoded arbitrary text, broken
 * percent-encoding, dot segments and route-like words. Only bytes 0x21-0x7E: Node's parser answers
 * any other byte in the target with its own bare 400 before the app runs.
 */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  fc.webSegment(),
  nastyString.filter((s) => s.length < 2000).map((s) => {
    try {
      return encodeURIComponent(s);
    } catch {
      return encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?')); // a lone surrogate cannot be encoded
    }
  }),
  // '#' would end the path (a URL fragment), so the request would name another route: sent encoded.
  fc.string({ unit: char(0x21, 0x7e), maxLength: 20 }).map((s) => s.replace(/#/g, '%23')),
  fc.constantFrom('', '.', '..', '%', '%%', '%zz', '%0', '%00', '%2f', '%2F', '%2e%2e', '%c0%ae', '%ff', '%ed%a0%80', '%u0041',
    'me', 'ME', 'invites', 'invite', 'api-keys', 'login', 'signup', 'auth', 'v1', 'api', ';', ';x=1', 'me;'),
  fc.uuid(),
);
