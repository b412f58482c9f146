/**
 * Loaded by Jest before every test file (setupFilesAfterEnv): every response supertest receives
 * from a Portcullis app is checked against docs/openapi.yaml, after the test's own `.expect`s. A
 * response the document does not allow fails the request (its promise rejects, or its callback
 * gets the error) with a message naming each departure. No test has to opt in.
 *
 * An app that is deliberately not Portcullis (a throwaway app in a test) is left alone by
 * `skipOpenApiValidation(app)`.
 */
import type { Server } from 'node:http';
import type { Response } from 'supertest';
import { assertMatchesOpenApi } from './openapi-validator';

// supertest's request class: its `assert` runs once per response, with the test's own assertions.
const Test = require('supertest/lib/test') as { prototype: SupertestTest };

interface SupertestTest {
  app: Server | string;
  method: string;
  url: string;
  assert(error: Error | null, res: Response | undefined, fn?: (error: Error | null, res?: Response) => void): void;
}

const skipped = new WeakSet<object>();

/** Leaves an app's responses unchecked: for an app built to break the contract on purpose. */
export function skipOpenApiValidation(app: object): void {
  skipped.add(app);
}

/** supertest wraps a bare app in a server: the app is the server's request listener. */
function isSkipped(test: SupertestTest): boolean {
  if (typeof test.app === 'string') return false;
  const listener = test.app.listeners('request')[0];
  return skipped.has(test.app) || (typeof listener === 'function' && skipped.has(listener));
}

function targetOf(url: string): string {
  const match = /^[a-z]+:\/\/[^/]+(.*)$/i.exec(url);
  return match?.[1] || '/';
}

function checkAgainstDocument(test: SupertestTest, res: Response): Error | null {
  try {
    const text = (res as Response & { text?: string }).text;
    assertMatchesOpenApi({
      method: test.method,
      target: targetOf(test.url),
      status: res.status,
      headers: res.headers as Record<string, string | string[] | undefined>,
      body: typeof text === 'string' ? text : Buffer.isBuffer(res.body) ? res.body : undefined,
    });
    return null;
  } catch (error) {
    return error as Error;
  }
}

const originalAssert = Test.prototype.assert;
Test.prototype.assert = function assertThenValidate(this: SupertestTest, error, res, fn) {
  originalAssert.call(this, error, res, (ownError, response) => {
    const drift = !ownError && response && !isSkipped(this) ? checkAgainstDocument(this, response) : null;
    fn?.call(this, ownError ?? drift, response);
  });
};
