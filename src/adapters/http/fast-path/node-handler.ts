import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What a handler may rely on when it has to run both inside Express and without it (route-table.ts
 * answers a parameter-less route's exact URL itself, where the request never meets Express): Node's
 * own request and response plus the few fields both paths provide. Express's Request and Response extend these, so a NodeHandler
 * is an Express RequestHandler too; the reverse does not hold, which is the point: a handler typed
 * as a NodeHandler cannot call res.json, res.status or req.get, which a request answered without Express does not have.
 */
export interface NodeRequest extends IncomingMessage {
  /** The client address as Express computes it (`trust proxy` decides); set by route-table.ts before any handler when Express is skipped. */
  readonly ip?: string | undefined;
  /** The matched route's parameters; empty when Express is skipped, since only parameter-less routes are. */
  readonly params: Readonly<Record<string, string | string[]>>;
}

// Per-request values (the route, the principal) live in request-context.ts, not on the response.
export type NodeResponse = ServerResponse;

export type NextFunction = (err?: unknown) => void;

export type NodeHandler = (req: NodeRequest, res: NodeResponse, next: NextFunction) => unknown;

export type NodeErrorHandler = (err: unknown, req: NodeRequest, res: NodeResponse, next: NextFunction) => unknown;

/** Express 5's rule: a handler that throws, or returns a promise that rejects, has passed that error on. */
function invoke(call: () => unknown, next: NextFunction): void {
  let returned: unknown;
  try {
    returned = call();
  } catch (error) {
    next(error);
    return;
  }
  if (returned instanceof Promise) returned.then(undefined, (error: unknown) => next(error ?? new Error('Rejected promise')));
}

/**
 * Runs handlers as Express's router runs a matched route's stack: each calls next() to go on, or
 * next(err) to skip to the error handlers, which run in order until one answers. An error no
 * handler answers, or a chain that ends without answering, reaches `end`.
 */
export function runHandlers(
  handlers: readonly NodeHandler[],
  errorHandlers: readonly NodeErrorHandler[],
  req: NodeRequest,
  res: NodeResponse,
  end: (err: unknown) => void,
): void {
  let index = 0;
  let errorIndex = 0;
  const next: NextFunction = (err) => {
    if (err) {
      const handler = errorHandlers[errorIndex++];
      if (handler) invoke(() => handler(err, req, res, next), next);
      else end(err);
      return;
    }
    const handler = handlers[index++];
    if (handler) invoke(() => handler(req, res, next), next);
    else end(undefined);
  };
  next();
}
