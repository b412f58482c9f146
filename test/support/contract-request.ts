/**
 * supertest, with every answer checked against the API reference (docs/openapi.yaml with the
 * repository's modules merged in): a response the document does not allow fails the request with
 * a message naming each departure, after the checks the test adds itself. The service's tests use
 * this `request`; an app that is not Portcullis (a stand-in downstream service, a made-up Express
 * app) is called with supertest itself.
 */
import type { Server } from 'node:http';
import supertest, { type Response, type Test } from 'supertest';
import { assertMatchesOpenApi } from './openapi-validator';

type App = Server | ((...args: never[]) => unknown) | string;
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
type Method = (typeof METHODS)[number];

export type ContractRequest = Record<Method, (url: string) => Test>;

export function request(app: App): ContractRequest {
  const agent = supertest(app as Parameters<typeof supertest>[0]);
  const bound = {} as ContractRequest;
  for (const method of METHODS) {
    bound[method] = (url) => checked(agent[method](url), method, url);
  }
  return bound;
}

/**
 * supertest runs a request's checks in the order they were added and stops at the first that fails;
 * the contract's check goes last, so a test's own expectation (a status, a body) is what a failure
 * names first, and the contract's when the test's own pass.
 */
function checked(test: Test, method: Method, url: string): Test {
  const end = test.end.bind(test);
  let added = false;
  test.end = (callback) => {
    if (!added) test.expect((res: Response) => {
      assertMatchesOpenApi({ method, target: url, status: res.status, headers: res.headers as Record<string, string | string[] | undefined>, body: bodyOf(res) });
    });
    added = true;
    return end(callback);
  };
  return test;
}

function bodyOf(res: Response): string | Buffer | undefined {
  const text = (res as Response & { text?: unknown }).text;
  if (typeof text === 'string') return text;
  return Buffer.isBuffer(res.body) ? res.body : undefined;
}
