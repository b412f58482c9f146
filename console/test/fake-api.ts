import { vi } from 'vitest';

export interface FakeAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export interface FakeRequest {
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
  readonly authorization: string | null;
  readonly accept: string | null;
}

/**
 * Stands in for the service: answers `METHOD /path` (query ignored) from a table, records every
 * request, and answers 404 Not found to anything else, as the service does.
 */
export function fakeApi(routes: Record<string, FakeAnswer | ((request: FakeRequest) => FakeAnswer)>) {
  const requests: FakeRequest[] = [];
  const fetch = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://console.test');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    const request: FakeRequest = {
      method,
      url: url.pathname + url.search,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      authorization: headers.get('Authorization'),
      accept: headers.get('Accept'),
    };
    requests.push(request);
    const route = routes[`${method} ${url.pathname}`];
    const answer = typeof route === 'function' ? route(request) : route ?? { status: 404, body: { error: 'Not found' } };
    // A 204 has no body at all, as the service sends it.
    return new Response(answer.status === 204 ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return { requests };
}

/** A token whose payload carries the claims the page reads (the page never checks the signature). */
export function tokenFor(claims: { email: string; role: string }): string {
  const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ ...claims, tenantId: 't-1', userId: 'u-1' })}.signature`;
}
