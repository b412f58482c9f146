import type { Introspection } from '../../../application/authentication/introspect';
import type { UseCases } from '../../../application/use-cases';
import { IntrospectBody } from '../body/dto/introspect-body';
import { HttpError } from '../errors/http-error';
import { AUTH_BASE } from '../routes/identity-routes';
import { json, route, type Answer, type Route } from '../routes/route';
import { type ChangeStreamLimits, changeStream } from './change-stream';
import { introspectionResult, type VerifierMetrics } from './verifier-metrics';

export interface VerifierRouteOptions {
  readonly heartbeatMs: number;
  readonly changeStreamLimits: ChangeStreamLimits;
  readonly metrics?: VerifierMetrics | undefined;
}

const NO_STORE = { 'Cache-Control': 'no-store' } as const;

function introspectionJson(result: Introspection): object {
  if (!result.active) return { active: false, position: result.position };
  const { tenantId, userId, role, method, expiresAt, keyId, sessionId, position, amr } = result;
  return {
    active: true,
    position,
    tenant_id: tenantId,
    user_id: userId,
    role,
    method,
    ...(expiresAt ? { exp: Math.floor(expiresAt.getTime() / 1000) } : {}),
    ...(keyId ? { key_id: keyId } : {}),
    ...(sessionId ? { session_id: sessionId } : {}),
    amr: [...amr],
  };
}

function activeOf(answer: Answer | undefined): boolean | undefined {
  return answer && 'json' in answer ? (answer.json as { active?: boolean }).active : undefined;
}

/**
 * The routes for verifying services (the `service` group): each is guarded by the service key and
 * limited per key rather than per address, since a verifier calls from one address far more often
 * than a browser's quota allows (app.ts puts the group before the global limiter).
 */
export function verifierRoutes(useCases: UseCases, options: VerifierRouteOptions): Route[] {
  const { metrics } = options;
  const openStream = changeStream({
    changes: useCases.credentialChanges,
    authenticateService: useCases.authenticateService,
    heartbeatMs: options.heartbeatMs,
    limits: options.changeStreamLimits,
    metrics,
  });
  return [
    route({
      method: 'post', path: `${AUTH_BASE}/introspect`, group: 'service', limit: 'introspect', body: IntrospectBody,
      handle: async ({ body, serviceCaller }) => {
        if ((body.token === undefined) === (body.api_key === undefined)) {
          const message = 'Exactly one of token and api_key is required';
          throw new HttpError(400, message, [{ field: 'token', message }, { field: 'api_key', message }]);
        }
        const credential = body.token !== undefined ? { token: body.token } : { apiKey: body.api_key! };
        const result = await useCases.introspect.execute(credential, serviceCaller, body.min_position ?? 0, serviceCaller.confirmedPosition);
        return json(200, introspectionJson(result), NO_STORE);
      },
      answered: metrics ? (status, answer) => metrics.introspections.inc({ result: introspectionResult(status, activeOf(answer)) }) : undefined,
    }),
    route({
      method: 'get', path: `${AUTH_BASE}/changes`, group: 'service', limit: 'introspect',
      handle: ({ serviceCaller }) => openStream(serviceCaller),
    }),
  ];
}
