import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { HttpError } from '../errors/http-error';
import { unsafeJsonReason } from './json-guards';

const BODY_LIMIT = '100kb';

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

const parse = express.json({ limit: BODY_LIMIT, strict: false, type: () => true });

/**
 * `application/json`, or SCIM's `application/scim+json` (RFC 7644), whatever its parameters and case
 * (Express's req.is needs Express's request).
 */
function isJson(contentType: string | undefined): boolean {
  const [type = ''] = (contentType ?? '').split(';');
  const base = type.trim().toLowerCase();
  return base === 'application/json' || base === 'application/scim+json';
}

/**
 * The one body reader: a JSON object, for the routes that declare a body (route-table.ts), on the
 * Express path and the direct one alike (body-parser needs nothing of Express's request). A missing
 * body is `{}`, so validation names the missing fields. Other content types are 415 (body-parser
 * would skip them silently and leave no body), and so is a charset other than UTF-8
 * (charsetProblem). `strict: false` lets every JSON value through the parser, so that an array or a
 * string gets our clearer "must be an object" answer instead of a syntax error. The parser's own
 * failures (malformed, too large, a bad length or encoding) go to the error mapper as they are.
 */
export async function readJsonBody(req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown>> {
  if (!hasBody(req.headers)) return {};
  if (!isJson(req.headers['content-type'])) throw new HttpError(415, 'Content-Type must be application/json');
  const charset = charsetProblem(req.headers['content-type']);
  if (charset) throw charset;
  const body = await new Promise<unknown>((resolve, reject) => {
    parse(req as Parameters<typeof parse>[0], res as Parameters<typeof parse>[1], (err?: unknown) => {
      if (err) reject(err);
      else resolve((req as IncomingMessage & { body?: unknown }).body);
    });
  });
  const problem = jsonObjectProblem(body); // `null` too is a JSON value, and not an object
  if (problem) throw problem;
  return body as Record<string, unknown>;
}
