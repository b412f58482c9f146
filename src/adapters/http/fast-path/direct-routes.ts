import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express } from 'express';
import proxyAddr from 'proxy-addr';
import { HttpError } from '../errors/http-error';
import { type NodeErrorHandler, type NodeHandler, type NodeRequest, type NodeResponse, runHandlers } from './node-handler';
import { sendJson } from './send-json';

interface Chain {
  readonly handlers: readonly NodeHandler[];
  readonly errorHandlers: readonly NodeErrorHandler[];
}

/** What every request passes through, in the app's order, and the error mapper that ends the app's stack. */
export interface DirectRouteStack {
  /** The app-level middleware that runs before any route (app.ts registers the same instances with app.use). */
  readonly before: readonly NodeHandler[];
  readonly errorMapper: NodeErrorHandler;
}

const notFound: NodeHandler = (_req, _res, next) => next(new HttpError(404, 'Not found'));

/**
 * The hottest routes (GET /me, GET /invites: every caller's credential check, and a tenant read)
 * answered without Express's per-request work, which on a small JSON answer is most of the cost:
 * prototypes swapped on the request and response, the app's whole stack walked and each layer's
 * path pattern tried, res.json's charset, ETag and freshness steps.
 *
 * A direct route runs exactly what Express would run for it, the same function objects in the same
 * order: the app-level middleware (request log, metrics, security headers, CORS, the global
 * limiter), the route's pattern marker, its group's guards, its handlers, its group's error
 * handlers, and the error mapper. They are NodeHandlers (node-handler.ts), so they cannot lean on
 * Express's request or response methods. Only a request whose method is GET and whose URL is the
 * route's path exactly takes this way; any other spelling Express accepts for the same route
 * (`/ME`, a trailing slash, a query string, HEAD) goes through Express and gets the same answer,
 * which test/http/direct-routes.test.ts checks header by header.
 *
 * It is only sound for a path no earlier layer of the app would match: the health, metrics and
 * docs routes and the public group have none of the direct paths (app.ts adds the protected
 * group, where direct routes come from, after them).
 */
export interface DirectRouteOptions {
  /** GET unless given. A POST route reads its body itself (node-json-body.ts): Express's parsers need Express. */
  readonly method?: DirectMethod;
  /**
   * What runs before the route instead of the stack's `before`: for a route the app registers
   * earlier than some of that middleware (the verifier routes come before the global limiter).
   */
  readonly before?: readonly NodeHandler[];
}

export type DirectMethod = 'GET' | 'POST';

export class DirectRoutes {
  private readonly chains = new Map<string, Map<string, Chain>>([['GET', new Map()], ['POST', new Map()]]);

  constructor(private readonly stack: DirectRouteStack) {}

  /** The middleware that runs before every route, in the app's order (for a route's own `before`). */
  get before(): readonly NodeHandler[] {
    return this.stack.before;
  }

  add(path: string, handlers: readonly NodeHandler[], errorHandlers: readonly NodeErrorHandler[], options: DirectRouteOptions = {}): void {
    const chains = this.chains.get(options.method ?? 'GET')!;
    if (chains.has(path)) throw new Error(`direct route ${path} added twice`);
    chains.set(path, {
      handlers: [...(options.before ?? this.stack.before), ...handlers, notFound],
      errorHandlers: [...errorHandlers, this.stack.errorMapper],
    });
  }

  /** The server's request listener: a direct route when one matches, the Express app otherwise. */
  listener(app: Express): RequestListener {
    // Read once: the app's settings are final by the time it serves (createApp returns after setting them).
    const trust = app.get('trust proxy fn') as Parameters<typeof proxyAddr>[1];
    return (req: IncomingMessage, res: ServerResponse) => {
      const chain = this.chains.get(req.method ?? '')?.get(req.url ?? '');
      if (!chain) {
        app(req, res);
        return;
      }
      const request = req as NodeRequest & { ip: string; params: Record<string, string> };
      const response = res as NodeResponse;
      request.ip = proxyAddr(req, trust); // what Express's req.ip getter returns
      request.params = {};
      response.locals = Object.create(null) as Record<string, unknown>;
      runHandlers(chain.handlers, chain.errorHandlers, request, response, (err) => unanswered(err, request, response));
    };
  }
}

/**
 * The end of the line, as Express's final handler: the error mapper passes an error on only when
 * the answer has already begun (the connection is then cut, the client sees a broken response
 * rather than a wrong one); anything else unanswered is a 500.
 */
function unanswered(_err: unknown, req: NodeRequest, res: NodeResponse): void {
  if (res.headersSent) req.socket.destroy();
  else sendJson(res, 500, { error: 'Internal server error' });
}
