import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What a handler may rely on when it has to run both inside Express and on a direct route
 * (direct-routes.ts), where the request never meets Express: Node's own request and response plus
 * the few fields both paths provide. Express's Request and Response extend these, so a NodeHandler
 * is an Express RequestHandler too; the reverse does not hold, which is the point: a handler typed
 * as a NodeHandler cannot call res.json, res.status or req.get, which a direct route does not have.
 */
export interface NodeRequest extends IncomingMessage {
  /** The client address as Express computes it (`trust proxy` decides); set on a direct route before any handler. */
  readonly ip?: string | undefined;
  /** The matched route's parameters; empty on a direct route, whose path has none. */
  readonly params: Readonly<Record<string, string | string[]>>;
}

export interface NodeResponse extends ServerResponse {
  /** Per-request values (the principal, the route pattern): request-principal.ts and request-route.ts. */
  locals: Record<string, unknown>;
}

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
