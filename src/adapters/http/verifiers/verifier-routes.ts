import type { Express } from 'express';
import type { Introspection } from '../../../application/authentication/introspect';
import type { UseCases } from '../../../application/use-cases';
import { IntrospectBody } from '../body/dto/introspect-body';
import { HttpError } from '../errors/http-error';
import type { DirectRoutes } from '../fast-path/direct-routes';
import type { NodeHandler } from '../fast-path/node-handler';
import { nodeBodyOf, nodeJsonBody, validateNodeBody } from '../body/node-json-body';
import { markRoute } from '../routes/request-route';
import { sendJson } from '../fast-path/send-json';
import { type ChangeStreamLimits, changeStream } from './change-stream';
import { serviceCallerOf } from './service-caller';
import { serviceGuard } from './service-guard';
import { introspectionResult, type VerifierMetrics } from './verifier-metrics';

export interface VerifierRouteOptions {
  /** The app's per-address limiter, for requests whose service key is not already trusted. */
  readonly globalLimiter: NodeHandler;
  /** Per service key. */
  readonly introspectLimiter: NodeHandler;
  readonly heartbeatMs: number;
  readonly changeStreamLimits: ChangeStreamLimits;
  readonly metrics?: VerifierMetrics | undefined;
  /**
   * Where POST /introspect is also served without Express (direct-routes.ts), after `before` (the
   * app-level middleware every request passes, without the global limiter).
   */
  readonly direct?: { readonly routes: DirectRoutes; readonly before: readonly NodeHandler[] } | undefined;
}

const ACTIVE = 'introspectionActive';
const NO_STORE = { 'Cache-Control': 'no-store' } as const;

function introspectionJson(result: Introspection): object {
  if (!result.active) return { active: false, position: result.position };
  const { tenantId, userId, role, method, expiresAt, keyId, position } = result;
  return {
    active: true,
    position,
    tenant_id: tenantId,
    user_id: userId,
    role,
    method,
    ...(expiresAt ? { exp: Math.floor(expiresAt.getTime() / 1000) } : {}),
    ...(keyId ? { key_id: keyId } : {}),
  };
}

function countIntrospections(metrics: VerifierMetrics): NodeHandler {
  return (_req, res, next) => {
    res.once('finish', () => {
      metrics.introspections.inc({ result: introspectionResult(res.statusCode, res.locals[ACTIVE] as boolean | undefined) });
    });
    next();
  };
}

/**
 * The routes for verifying services, on the app before its global limiter: a verifier calls from
 * one address far more often than the per-address quota allows. Each route is guarded by the
 * service key (service-guard.ts) and limited per key instead.
 */
export function addVerifierRoutes(app: Express, base: string, useCases: UseCases, options: VerifierRouteOptions): void {
  const { metrics } = options;
  const guard = serviceGuard(useCases.authenticateService, options.globalLimiter);
  const introspectPath = `${base}/introspect`;
  // NodeHandlers throughout, so that the exact path is answered without Express: a verifier calls
  // this for every credential it has not seen, and Express's own work would be most of the cost.
  const introspect: NodeHandler[] = [
    markRoute(introspectPath), ...(metrics ? [countIntrospections(metrics)] : []), guard, options.introspectLimiter,
    nodeJsonBody(), validateNodeBody(IntrospectBody), async (_req, res) => {
      const body = nodeBodyOf<IntrospectBody>(res);
      if ((body.token === undefined) === (body.api_key === undefined)) {
        const message = 'Exactly one of token and api_key is required';
        throw new HttpError(400, message, [{ field: 'token', message }, { field: 'api_key', message }]);
      }
      const credential = body.token !== undefined ? { token: body.token } : { apiKey: body.api_key! };
      const result = await useCases.introspect.execute(credential, serviceCallerOf(res), body.min_position ?? 0);
      res.locals[ACTIVE] = result.active;
      sendJson(res, 200, introspectionJson(result), NO_STORE);
    },
  ];
  app.post(introspectPath, ...introspect);
  options.direct?.routes.add(introspectPath, introspect, [], { method: 'POST', before: options.direct.before });

  const changesPath = `${base}/changes`;
  app.get(changesPath, markRoute(changesPath), guard, options.introspectLimiter, changeStream({
    changes: useCases.credentialChanges,
    authenticateService: useCases.authenticateService,
    heartbeatMs: options.heartbeatMs,
    limits: options.changeStreamLimits,
    metrics,
  }));
}
