import { request } from '../support/contract-request';
import { buildTestApp, type TestApp } from '../support/http-app';
import { AUTH, expectError, PASSWORD } from '../support/http-fixtures';
import { assembleForTest, testConfig, uniqueEmail } from '../support/test-use-cases';

const MAILBOX = '/api/v1/dev/mailbox';

describe('GET /api/v1/dev/mailbox: the development mailbox, for the console', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.assembly.close());

  it('lists what the development mailbox holds, newest first, each with its first link', async () => {
    const first = uniqueEmail('mailbox');
    const second = uniqueEmail('mailbox');
    for (const email of [first, second]) {
      await request(t.app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: 'Mailbox Co' }).expect(201);
      await request(t.app).post(`${AUTH}/password/forgot`).send({ email }).expect(202);
      await t.useCases.forgotPassword.settled();
      await t.assembly.mailWorker!.deliverNow();
    }
    const res = await request(t.app).get(MAILBOX).expect(200);
    const ours = (res.body.messages as Array<{ to: string; subject: string; link: string | null; sent_at: string; text: string }>)
      // Signing up sends a verification message too: the resets alone show the order.
      .filter((message) => (message.to === first || message.to === second) && message.subject.startsWith('Reset'));
    expect(ours.map((message) => message.to)).toEqual([second, first]);
    expect(ours[0]!.subject).toBe('Reset your password for Mailbox Co');
    expect(ours[0]!.link).toMatch(/^http:\/\/localhost:3000\/console\/reset-password\?token=[0-9a-f]{64}$/);
    expect(ours[0]!.text).toContain(ours[0]!.link);
    expect(Date.parse(ours[0]!.sent_at)).toBeGreaterThanOrEqual(Date.parse(ours[1]!.sent_at));
  });

  it('is not served with any other mailer: an unknown route, as in production', async () => {
    const smtpLike = await assembleForTest({}, testConfig(), { mailer: { send: async () => undefined } });
    try {
      expectError(await request(smtpLike.listener).get(MAILBOX), 404, 'Not found');
      expect(smtpLike.routes.some((route) => route.path === MAILBOX)).toBe(false);
    } finally {
      await smtpLike.close();
    }
  });

  it('is not served in production, where no development mailbox is ever chosen', async () => {
    const production = await assembleForTest({}, testConfig({}, { nodeEnv: 'production' }));
    try {
      expect(production.mailer).toBeUndefined();
      expectError(await request(production.listener).get(MAILBOX), 404, 'Not found');
    } finally {
      await production.close();
    }
  });

  it('answers only a connection from this machine: from anywhere else it is an unknown route, whatever X-Forwarded-For says', async () => {
    const route = t.assembly.routes.find((candidate) => candidate.path === MAILBOX)!;
    const answerTo = async (remoteAddress: string) => {
      const answer = await route.handle({} as never);
      if (!('stream' in answer)) throw new Error('the mailbox route answers by its stream');
      const sent: { status?: number; body?: string } = {};
      const req = { socket: { remoteAddress }, headers: { 'x-forwarded-for': '127.0.0.1' } };
      const res = {
        setHeader: () => undefined,
        set statusCode(status: number) { sent.status = status; },
        end: (text: string) => { sent.body = text; },
      };
      answer.stream(req as never, res as never);
      return { status: sent.status, body: JSON.parse(sent.body ?? 'null') as unknown };
    };
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect((await answerTo(address)).status).toBe(200);
    for (const address of ['203.0.113.5', '10.0.0.7', '::ffff:192.168.1.2', '2001:db8::1', '::']) {
      expect({ address, ...(await answerTo(address)) }).toEqual({ address, status: 404, body: { error: 'Not found' } });
    }
  });
});
