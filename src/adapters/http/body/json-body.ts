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
 * Parser failures (malformed, too large, bad charset) go on to the error mapper as they are.
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
