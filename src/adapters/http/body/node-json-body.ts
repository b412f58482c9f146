import { HttpError } from '../errors/http-error';
import { BODY_LIMIT_BYTES, charsetProblem, hasBody, jsonObjectProblem } from './json-body';
import type { NodeHandler, NodeResponse } from '../fast-path/node-handler';
import { validatedInstance } from './validate-body';

// res.locals is per request and untyped; these functions are the only way in and out of it.
const KEY = 'body';

/** The body a NodeHandler chain read and validated. Throws (a 500) when none was: a wiring bug. */
export function nodeBodyOf<T>(res: NodeResponse): T {
  if (!(KEY in res.locals)) throw new Error('No body on this request: the route does not read one');
  return res.locals[KEY] as T;
}

/**
 * jsonBody() for a route that is also served directly (direct-routes.ts), where Express's parsers
 * cannot run: Node's request, read here. The same answers for what a client can get wrong: a
 * missing body is `{}`, other content types 415, a charset other than UTF-8 415, any content
 * encoding 415 (this reader does not inflate), more than the same 100 kB 413, a length that does
 * not match Content-Length or an aborted upload 400, malformed JSON 400, and a value that is not a
 * safe JSON object 400 with jsonBody's messages.
 */
export function nodeJsonBody(): NodeHandler {
  return (req, res, next) => {
    if (!hasBody(req.headers)) {
      res.locals[KEY] = {};
      next();
      return;
    }
    const [type = ''] = (req.headers['content-type'] ?? '').split(';');
    if (type.trim().toLowerCase() !== 'application/json') {
      next(new HttpError(415, 'Content-Type must be application/json'));
      return;
    }
    const charset = charsetProblem(req.headers['content-type']);
    if (charset) {
      next(charset);
      return;
    }
    const encoding = req.headers['content-encoding']?.trim().toLowerCase();
    if (encoding !== undefined && encoding !== 'identity') {
      next(new HttpError(415, 'Unsupported content encoding'));
      return;
    }
    const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
    if (declared !== undefined && declared > BODY_LIMIT_BYTES) {
      next(new HttpError(413, 'Request body too large'));
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const finish = (error: HttpError | null): void => {
      if (done) return;
      done = true;
      req.removeListener('data', onData);
      if (error) {
        next(error);
        return;
      }
      if (declared !== undefined && received !== declared) {
        next(new HttpError(400, 'Request body length does not match Content-Length'));
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks, received).toString('utf8'));
      } catch {
        next(new HttpError(400, 'Malformed JSON body'));
        return;
      }
      const problem = jsonObjectProblem(body);
      if (problem) {
        next(problem);
        return;
      }
      res.locals[KEY] = body;
      next();
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > BODY_LIMIT_BYTES) finish(new HttpError(413, 'Request body too large'));
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish(null));
    req.once('aborted', () => finish(new HttpError(400, 'Request aborted')));
    req.once('error', () => finish(new HttpError(400, 'Request aborted')));
  };
}

/** validateBody() for a body nodeJsonBody read: replaced by a validated instance of `dto`, or 400 naming the field. */
export function validateNodeBody<T extends object>(dto: new () => T): NodeHandler {
  return async (_req, res, next) => {
    res.locals[KEY] = await validatedInstance(dto, nodeBodyOf<Record<string, unknown>>(res));
    next();
  };
}
