/** The header Portcullis reads a service key from. */
export const SERVICE_KEY_HEADER = 'x-service-key';

export type IntrospectionRequest = { readonly token: string } | { readonly api_key: string };

/** Portcullis's answer, as it sends it. */
export type Introspection =
  | { readonly active: false }
  | {
    readonly active: true;
    readonly tenant_id: string;
    readonly user_id: string;
    readonly role: string;
    readonly method: 'jwt' | 'api_key';
    readonly exp?: number;
    readonly key_id?: string;
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
  if (v.active === false) return true;
  return v.active === true && typeof v.tenant_id === 'string' && typeof v.user_id === 'string' && typeof v.role === 'string'
    && (v.method === 'jwt' || v.method === 'api_key') && (v.exp === undefined || typeof v.exp === 'number')
    && (v.key_id === undefined || typeof v.key_id === 'string');
}

/** POST /api/v1/auth/introspect over Node's fetch (keep-alive connections are pooled by it). */
export class IntrospectionClient {
  private readonly endpoint: URL;

  constructor(url: string, private readonly serviceKey: string, private readonly timeoutMs: number) {
    this.endpoint = new URL('/api/v1/auth/introspect', url);
  }

  async introspect(request: IntrospectionRequest): Promise<Introspection> {
    let res: Response;
    try {
      res = await fetch(this.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SERVICE_KEY_HEADER]: this.serviceKey },
        body: JSON.stringify(request),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new PortcullisUnavailable('Portcullis did not answer the introspection', { cause: error });
    }
    const body: unknown = await res.json().catch(() => undefined);
    if (res.status === 401) throw new PortcullisUnavailable('Portcullis refused this service key (missing, unknown or revoked)');
    if (res.status !== 200 || !isIntrospection(body)) {
      throw new PortcullisUnavailable(`Portcullis answered the introspection with HTTP ${res.status}`);
    }
    return body;
  }
}
