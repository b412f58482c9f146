import type { Transport } from './http-transport';

/** The header Portcullis reads a service key from. */
export const SERVICE_KEY_HEADER = 'x-service-key';

export type IntrospectionRequest = ({ readonly token: string } | { readonly api_key: string }) & {
  /** The highest change position heard: Portcullis applies every change up to it before answering. */
  readonly min_position?: number;
};

/** Portcullis's answer, as it sends it, with the change position it is at least as fresh as. */
export type Introspection =
  | { readonly active: false; readonly position: number }
  | {
    readonly active: true;
    readonly position: number;
    readonly tenant_id: string;
    readonly user_id: string;
    readonly role: string;
    readonly method: 'jwt' | 'api_key';
    readonly exp?: number;
    readonly key_id?: string;
    /** The session a bearer token belongs to; absent for an API key and for a token issued without one. */
    readonly session_id?: string;
    /** How the caller authenticated; absent from a Portcullis that predates second factors. */
    readonly amr?: readonly string[];
  };

/** Portcullis could not vouch for a credential: unreachable, too slow, refusing this service, or answering nonsense. */
export class PortcullisUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PortcullisUnavailable';
  }
}

function isIntrospection(value: unknown): value is Introspection {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (typeof v.position !== 'number' || !Number.isSafeInteger(v.position) || v.position < 0) return false;
  if (v.active === false) return true;
  return v.active === true && typeof v.tenant_id === 'string' && typeof v.user_id === 'string' && typeof v.role === 'string'
    && (v.method === 'jwt' || v.method === 'api_key') && (v.exp === undefined || typeof v.exp === 'number')
    && (v.key_id === undefined || typeof v.key_id === 'string') && (v.session_id === undefined || typeof v.session_id === 'string')
    && (v.amr === undefined || (Array.isArray(v.amr) && v.amr.every((value) => typeof value === 'string')));
}

/** POST /api/v1/auth/introspect, over pooled keep-alive connections (http-transport.ts). */
export class IntrospectionClient {
  private readonly endpoint: URL;

  constructor(url: string, private readonly serviceKey: string, private readonly timeoutMs: number, private readonly transport: Transport) {
    this.endpoint = new URL('/api/v1/auth/introspect', url);
  }

  async introspect(request: IntrospectionRequest): Promise<Introspection> {
    let answer: { status: number; body: unknown };
    try {
      answer = await this.transport.postJson(this.endpoint, { [SERVICE_KEY_HEADER]: this.serviceKey }, request, this.timeoutMs);
    } catch (error) {
      throw new PortcullisUnavailable('Portcullis did not answer the introspection', { cause: error });
    }
    if (answer.status === 401) throw new PortcullisUnavailable('Portcullis refused this service key (missing, unknown or revoked)');
    if (answer.status !== 200 || !isIntrospection(answer.body)) {
      throw new PortcullisUnavailable(`Portcullis answered the introspection with HTTP ${answer.status}`);
    }
    return answer.body;
  }
}
