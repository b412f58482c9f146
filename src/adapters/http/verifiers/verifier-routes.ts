import type { Express } from 'express';
import type { Introspection } from '../../../application/introspect';
import type { UseCases } from '../../../application/use-cases';
import { IntrospectBody } from '../dto/introspect-body';
import { HttpError } from '../http-error';
import { jsonBody } from '../json-body';
import type { NodeHandler } from '../node-handler';
import { markRoute } from '../request-route';
import { validateBody } from '../validate-body';
import { changeStream } from './change-stream';
import { serviceGuard } from './service-guard';
import { introspectionResult, type VerifierMetrics } from './verifier-metrics';

export interface VerifierRouteOptions {
  /** The app's per-address limiter, for requests whose service key is not already trusted. */
  readonly globalLimiter: NodeHandler;
  /** Per service key. */
  readonly introspectLimiter: NodeHandler;
  readonly heartbeatMs: number;
  readonly metrics?: VerifierMetrics | undefined;
}

const ACTIVE = 'introspectionActive';

function introspectionJson(result: Introspection): object {
  if (!result.active) return { active: false };
  const { tenantId, userId, role, method, expiresAt, keyId } = result;
  return {
    active: true,
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
  app.post(introspectPath, markRoute(introspectPath), ...(metrics ? [countIntrospections(metrics)] : []), guard, options.introspectLimiter,
    jsonBody(), validateBody(IntrospectBody), async (req, res) => {
      const body = req.body as IntrospectBody;
      if ((body.token === undefined) === (body.api_key === undefined)) {
        const message = 'Exactly one of token and api_key is required';
        throw new HttpError(400, message, [{ field: 'token', message }, { field: 'api_key', message }]);
      }
      const result = await useCases.introspect.execute(body.token !== undefined ? { token: body.token } : { apiKey: body.api_key! });
      res.locals[ACTIVE] = result.active;
      res.status(200).set('Cache-Control', 'no-store').json(introspectionJson(result));
    });

  const changesPath = `${base}/changes`;
  app.get(changesPath, markRoute(changesPath), guard, options.introspectLimiter, changeStream({
    changes: useCases.credentialChanges,
    authenticateService: useCases.authenticateService,
    heartbeatMs: options.heartbeatMs,
    metrics,
  }));
}
