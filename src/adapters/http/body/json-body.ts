import express, { type RequestHandler } from 'express';
import { HttpError } from '../errors/http-error';
import { unsafeJsonReason } from './json-guards';

const BODY_LIMIT = '100kb';
/** The same limit in bytes, for readers that count for themselves (node-json-body.ts). */
export const BODY_LIMIT_BYTES = 100 * 1024;

/** A body is on its way when it is chunked or announces a non-zero length (an empty one is no body). */
export function hasBody(headers: { 'transfer-encoding'?: string | undefined; 'content-length'?: string | undefined }): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = Number(headers['content-length'] ?? 0);
  return !Number.isNaN(length) && length > 0;
}

/**
 * A charset other than UTF-8 is refused with 415, as the API reference says, by both body readers
 * alike: `utf-8` in any case, quoted or not, or no charset at all. body-parser alone would decode
 * any `utf-*` (UTF-16 bodies then failed to parse, a 400) and refuse the rest.
 */
export function charsetProblem(contentType: string | undefined): HttpError | null {
  const [, ...params] = (contentType ?? '').split(';');
  for (const param of params) {
    const equals = param.indexOf('=');
    if (equals === -1 || param.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    const charset = param.slice(equals + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (charset !== 'utf-8') return new HttpError(415, 'Unsupported charset: use UTF-8');
  }
  return null;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why a parsed body cannot be taken (not an object, or unsafe keys or text); null when it can. */
export function jsonObjectProblem(body: unknown): HttpError | null {
  if (!isJsonObject(body)) return new HttpError(400, 'Request body must be a JSON object');
  const unsafe = unsafeJsonReason(body);
  return unsafe === null ? null : new HttpError(400, unsafe);
}

/**
 * Parses a JSON object body, for the routes that take one. `strict: false` lets every JSON value
 * through the parser, so that an array or a string gets our clearer "must be an object" answer
 * instead of a syntax error. A missing body becomes `{}`, so validation names the missing fields.
 * A charset other than UTF-8 is refused before the parser runs (charsetProblem); the parser's own
 * failures (malformed, too large) go on to the error mapper as they are.
 */
export function jsonBody(): RequestHandler {
  const parse = express.json({ limit: BODY_LIMIT, strict: false });
  return (req, res, next) => {
    if (!hasBody(req.headers)) {
      req.body = {};
      next();
      return;
    }
    // express.json would silently skip other types and leave us with no body: refuse them instead.
    if (!req.is('application/json')) {
      next(new HttpError(415, 'Content-Type must be application/json'));
      return;
    }
    const charset = charsetProblem(req.headers['content-type']);
    if (charset) {
      next(charset);
      return;
    }
    parse(req, res, (err?: unknown) => {
      if (err) {
        next(err);
        return;
      }
      const body: unknown = req.body; // `null` too is a JSON value, and not an object
      const problem = jsonObjectProblem(body);
      if (problem) {
        next(problem);
        return;
      }
      next();
    });
  };
}
