import type { RequestListener } from 'node:http';
import jwt from 'jsonwebtoken';
import type { Logger } from 'pino';
import { derivedKeyId } from '../../src/adapters/crypto/jwt-signing-keys';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import type { Assembly } from '../../src/bootstrap/assemble';
import { loadConfig } from '../../src/bootstrap/config';
import { request } from '../support/contract-request';
import { AUTH, bearer, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';
import { GENEROUS_RATE_LIMITS } from '../support/http-app';
import { captureLog } from '../support/log-capture';
import { assembleForTest, testConfig } from '../support/test-use-cases';

const OLD = 'the-secret-signing-before-the-rotation-0';
const NEW = 'the-secret-signing-after-the-rotation-01';

/**
 * OWASP ASVS 5.0 V11.2.2: the documented rotation (docs/operations.md, "Rotating the signing
 * secret") run on two instances over one storage. Each restart is a new assembly from the
 * environment an operator would set; at every step a token either instance issued is accepted by
 * both, so nobody is signed out, and once the old secret is removed its tokens are refused by both.
 */
describe('signing-key rotation on two instances (V11.2.2)', () => {
  const storage = createMemoryStorage();
  const running: Assembly[] = [];

  /** An instance started with these variables, as main starts one: loadConfig checks them, assemble makes the keys. */
  async function start(env: NodeJS.ProcessEnv, logger?: Logger): Promise<RequestListener> {
    const read = loadConfig(env);
    const config = testConfig({}, {
      jwtSecret: read.jwtSecret, jwtSecretKeyId: read.jwtSecretKeyId,
      jwtSecretNext: read.jwtSecretNext, jwtSecretNextKeyId: read.jwtSecretNextKeyId,
      jwtSecretPrevious: read.jwtSecretPrevious, jwtSecretPreviousKeyId: read.jwtSecretPreviousKeyId,
      rateLimits: { ...loadConfig({}).rateLimits, ...GENEROUS_RATE_LIMITS },
    });
    const assembly = await assembleForTest({ storage }, config, { logger });
    running.push(assembly);
    return assembly.listener;
  }

  afterAll(async () => {
    await Promise.all(running.map((assembly) => assembly.close()));
  });

  const me = (app: RequestListener, token: string) => request(app).get(`${AUTH}/me`).set(bearer({ token }));
  const kidOf = (token: string): unknown => jwt.decode(token, { complete: true })!.header.kid;

  async function expectAccepted(apps: readonly RequestListener[], tokens: readonly string[]): Promise<void> {
    for (const app of apps) {
      for (const token of tokens) expect((await me(app, token)).status).toBe(200);
    }
  }

  async function expectRefused(apps: readonly RequestListener[], tokens: readonly string[]): Promise<void> {
    for (const app of apps) {
      for (const token of tokens) expectError(await me(app, token), 401, 'Invalid or expired token');
    }
  }

  it('runs steps (a) to (c): nobody is signed out, and the retired secret\'s tokens end refused everywhere', async () => {
    const before = { JWT_SECRET: OLD };
    const addNext = { JWT_SECRET: OLD, JWT_SECRET_NEXT: NEW };
    const switched = { JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD };
    const after = { JWT_SECRET: NEW };

    let a = await start(before);
    let b = await start(before);
    const owner = await signupOwner(a);
    const login = async (app: RequestListener): Promise<string> => {
      const res = await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD });
      expect(res.status).toBe(200);
      return res.body.token as string;
    };
    // A token from before tokens carried a kid: the same claims, signed with the old secret, no kid.
    const { iat: _iat, exp: _exp, ...claims } = jwt.decode(owner.token) as jwt.JwtPayload;
    const withoutKid = jwt.sign(claims, OLD, { algorithm: 'HS256', expiresIn: '24h' });
    expect(kidOf(withoutKid)).toBeUndefined();
    const oldTokens = [owner.token, await login(b), withoutKid];
    expect(oldTokens.slice(0, 2).map(kidOf)).toEqual([derivedKeyId(OLD), derivedKeyId(OLD)]);
    await expectAccepted([a, b], oldTokens);

    // (a) NEW added as JWT_SECRET_NEXT, one instance after the other: verified, not yet signed with.
    a = await start(addNext);
    oldTokens.push(await login(a));
    await expectAccepted([a, b], oldTokens);
    b = await start(addNext);
    oldTokens.push(await login(b));
    await expectAccepted([a, b], oldTokens);
    expect(oldTokens.slice(3).map(kidOf)).toEqual([derivedKeyId(OLD), derivedKeyId(OLD)]);

    // (b) NEW signs, OLD becomes JWT_SECRET_PREVIOUS; b still signs with OLD while a has switched.
    a = await start(switched);
    const newTokens = [await login(a)];
    expect(kidOf(newTokens[0]!)).toBe(derivedKeyId(NEW));
    oldTokens.push(await login(b));
    await expectAccepted([a, b], [...oldTokens, ...newTokens]);
    b = await start(switched);
    newTokens.push(await login(b));
    await expectAccepted([a, b], [...oldTokens, ...newTokens]);

    // (c) A day later (every OLD token has expired by then), JWT_SECRET_PREVIOUS is removed.
    a = await start(after);
    newTokens.push(await login(a));
    await expectAccepted([a, b], newTokens);
    await expectRefused([a], oldTokens);
    b = await start(after);
    newTokens.push(await login(b));
    await expectAccepted([a, b], newTokens);
    await expectRefused([a, b], oldTokens);
  });

  it('(d) in an emergency the compromised secret is removed at once: its tokens are refused by every restarted instance', async () => {
    const owner = await signupOwner(await start({ JWT_SECRET: OLD }));
    const login = async (app: RequestListener): Promise<string> => {
      const res = await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD });
      expect(res.status).toBe(200);
      return res.body.token as string;
    };
    // OLD leaked: both instances restart signing with NEW, holding OLD no more.
    const a = await start({ JWT_SECRET: NEW });
    const b = await start({ JWT_SECRET: NEW });
    await expectRefused([a, b], [owner.token]);
    await expectAccepted([a, b], [await login(a), await login(b)]);
  });

  it('an instance logs at start the ids of the keys it signs and verifies with, never a secret', async () => {
    const log = captureLog();
    await start({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD, JWT_SECRET_PREVIOUS_KEY_ID: '2026-09' }, log.logger);
    await new Promise<void>((resolve) => log.logger.flush(() => resolve()));
    expect(log.lines).toContainEqual(expect.objectContaining({
      msg: 'token signing keys', signingKeyId: derivedKeyId(NEW), verifyingKeyIds: [derivedKeyId(NEW), '2026-09'],
    }));
    expect(log.raw.join('\n')).not.toContain(NEW);
    expect(log.raw.join('\n')).not.toContain(OLD);
  });
});
