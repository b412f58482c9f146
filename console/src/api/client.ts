import type { components, paths } from './schema';

/**
 * A thin client over fetch, typed by the types generated from docs/openapi.yaml (src/api/schema.d.ts,
 * `npm run api-types`): a path, method, body or field that the document does not have is a type
 * error, so the console cannot drift from the API without its type check failing.
 */
export type Schemas = components['schemas'];
export type Role = Schemas['Role'];

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;
type Responses<O> = O extends { responses: infer R } ? R : never;
/** The body of the operation's success answer (200 or 201); undefined for an answer without one (204). */
export type Success<P extends keyof paths, M extends Method> = 204 extends keyof Responses<Operation<P, M>>
  ? undefined
  : JsonOf<Responses<Operation<P, M>>[Extract<keyof Responses<Operation<P, M>>, 200 | 201>]>;
type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;
type PathParams<O> = O extends { parameters: { path: infer Params } } ? Params : never;
type QueryOf<O> = O extends { parameters: { query?: infer Query } } ? NonNullable<Query> : never;

export interface CallOptions<O> {
  readonly body?: BodyOf<O>;
  readonly params?: PathParams<O>;
  readonly query?: QueryOf<O>;
}

export interface FieldDetail {
  readonly field: string;
  readonly message: string;
}

function detailsOf(body: unknown): FieldDetail[] {
  const details = (body as { details?: unknown } | null)?.details;
  if (!Array.isArray(details)) return [];
  return details.filter((d): d is FieldDetail =>
    typeof (d as FieldDetail | null)?.field === 'string' && typeof (d as FieldDetail).message === 'string');
}

/** A refusal, as the API worded it; `retryAfterSeconds` comes from Retry-After on a 429 or 503. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSeconds: number | null = null,
    /** A 400's per-field messages (`details`), when the API gave them. */
    readonly details: readonly FieldDetail[] = [],
    /** The refusal's whole JSON body, for the fields a refusal carries besides `error` (a login's `mfa_token`). */
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Where the API is: this page's own origin, unless the development server says otherwise. */
export const API_BASE: string = import.meta.env.VITE_API_BASE ?? '';

function urlFor(path: string, params?: object, query?: object): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String((params as Record<string, unknown>)[name])));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const qs = search.toString();
  return `${API_BASE}${filled}${qs ? `?${qs}` : ''}`;
}

function retryAfter(response: Response): number | null {
  const value = Number(response.headers.get('Retry-After'));
  return Number.isInteger(value) && value > 0 ? value : null;
}

/**
 * One request. Resolves to the success body (undefined for 204 No Content); rejects with an ApiError carrying the API's own message,
 * or, when the service cannot be reached or does not answer in JSON, a message saying so.
 */
export async function call<P extends keyof paths, M extends Method>(
  method: M,
  path: P,
  token: string | null,
  options: CallOptions<Operation<P, M>> = {},
): Promise<Success<P, M>> {
  // A route that can also answer a browser's navigation (SSO start's redirect) answers JSON when asked for it.
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers['Authorization'] = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(urlFor(path, options.params, options.query), {
      method: method.toUpperCase(),
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'The service cannot be reached. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as Success<P, M>;
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // handled below: a success must be JSON, a refusal without JSON gets a generic message
  }
  if (response.ok && body !== null) return body as Success<P, M>;
  const message = typeof (body as { error?: unknown } | null)?.error === 'string'
    ? (body as { error: string }).error
    : `The service answered ${response.status} without an explanation.`;
  throw new ApiError(response.status, message, retryAfter(response), detailsOf(body), body);
}
