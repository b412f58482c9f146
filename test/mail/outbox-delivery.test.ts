import request from 'supertest';
import { SmtpMailer } from '../../src/adapters/mail/smtp-mailer';
import type { Assembly } from '../../src/bootstrap/assemble';
import { TestClock } from '../../src/testing/test-clock';
import { createFreshDatabase, type FreshDatabase } from '../support/fresh-postgres-database';
import { GENEROUS_RATE_LIMITS } from '../support/http-app';
import { describeIfPostgres } from '../support/postgres';
import { quotedPrintableDecoded, startSmtpServer, type TestSmtpServer } from '../support/smtp-server';
import { openTestStorage, type TestDatabase } from '../support/test-storage';
import { assembleForTest, testConfig, uniqueEmail } from '../support/test-use-cases';

const AUTH = '/api/v1/auth';
const PASSWORD = 'correct horse battery';
const PUBLIC_URL = 'https://auth.example.test';

/** An instance of the service that sends through `server`, over memory or the database given. */
async function instance(server: TestSmtpServer, options: { clock?: TestClock; database?: TestDatabase } = {}): Promise<Assembly> {
  const base = testConfig();
  return assembleForTest(
    { clock: options.clock, opened: options.database ? await openTestStorage(options.database) : undefined },
    testConfig({}, { publicUrl: PUBLIC_URL, rateLimits: { ...base.rateLimits, ...GENEROUS_RATE_LIMITS } }),
    { mailer: new SmtpMailer({ url: server.url, from: 'Portcullis <no-reply@example.test>' }), onBackgroundError: (error) => { throw error; } },
  );
}

/** A new member; the verification message their signup posts is delivered at once, so only what the test asks for is due after. */
async function signUp(service: Assembly, label: string): Promise<string> {
  const email = uniqueEmail(label);
  const res = await request(service.listener).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: `${label} & Co` });
  expect(res.status).toBe(201);
  await drain(service);
  return email;
}

function drain(service: Assembly): Promise<void> {
  return service.mailWorker!.deliverAllDue();
}

/** The messages of that subject the server received for that address. */
function receivedBy(server: TestSmtpServer, email: string, subject: RegExp) {
  return server.received.filter((mail) => mail.envelopeTo.includes(email) && subject.test(mail.raw));
}

const RESET_SUBJECT = /^Subject: Reset your password for /m;
const VERIFY_SUBJECT = /^Subject: Confirm your e-mail address for /m;

async function askForReset(service: Assembly, email: string): Promise<void> {
  expect((await request(service.listener).post(`${AUTH}/password/forgot`).send({ email })).status).toBe(202);
  await service.useCases.forgotPassword.settled();
}


function resetTokenIn(raw: string): string {
  const match = /https:\/\/auth\.example\.test\/console\/reset-password\?token=([0-9a-f]{64})/.exec(quotedPrintableDecoded(raw));
  if (!match) throw new Error(`no reset link in:\n${raw}`);
  return match[1]!;
}

describe.each([['memory', undefined], ['the embedded database', 'pglite' as const]])('the outbox delivered over SMTP, on %s', (_name, database) => {
  let server: TestSmtpServer;
  let deferrals = 0;
  beforeAll(async () => {
    server = await startSmtpServer({
      onRcptTo(_address, _session, callback) {
        if (deferrals > 0) {
          deferrals -= 1;
          callback(Object.assign(new Error('Greylisted, try again later'), { responseCode: 451 }));
        } else {
          callback();
        }
      },
    });
  });
  afterAll(() => server.stop());

  it('sends the reset message to the member only, with a link to PUBLIC_URL whose token resets the password', async () => {
    const service = await instance(server, { database });
    try {
      const email = await signUp(service, 'smtp');
      const stranger = uniqueEmail('nobody');
      await askForReset(service, email);
      await askForReset(service, stranger);
      await drain(service);

      const mine = receivedBy(server, email, RESET_SUBJECT);
      expect(mine).toHaveLength(1);
      expect(server.received.some((mail) => mail.envelopeTo.includes(stranger))).toBe(false);
      expect(mine[0]!.raw).toMatch(/^Subject: Reset your password for smtp & Co\r?$/m);
      expect(quotedPrintableDecoded(mine[0]!.raw)).toContain('smtp &amp; Co');
      const token = resetTokenIn(mine[0]!.raw);
      const reset = await request(service.listener).post(`${AUTH}/password/reset`).send({ token, password: 'a new passphrase here' });
      expect(reset.status).toBe(200);
    } finally {
      await service.close();
    }
  });

  it('keeps a message the server defers (4xx) and sends it once, on a later attempt, on the service clock', async () => {
    const clock = new TestClock();
    const service = await instance(server, { clock, database });
    try {
      const email = await signUp(service, 'deferred');
      await askForReset(service, email);
      deferrals = 2;
      expect(await service.mailWorker!.deliverNow()).toMatchObject({ claimed: 1, retried: 1 });
      clock.advance({ seconds: 30 });
      expect(await service.mailWorker!.deliverNow()).toMatchObject({ claimed: 1, retried: 1 });
      expect(await service.mailWorker!.deliverNow()).toMatchObject({ claimed: 0 });
      clock.advance({ seconds: 60 });
      expect(await service.mailWorker!.deliverNow()).toMatchObject({ claimed: 1, sent: 1 });
      expect(receivedBy(server, email, RESET_SUBJECT)).toHaveLength(1);

      const token = (await request(service.listener).post(`${AUTH}/login`).send({ email, password: PASSWORD })).body.token as string;
      const events = await request(service.listener).get(`${AUTH}/audit-events?action=email.sent`).set('authorization', `Bearer ${token}`);
      const resets = (events.body.events as Array<{ details: { kind: string } }>).filter((event) => event.details.kind === 'password-reset');
      expect(resets).toEqual([expect.objectContaining({ action: 'email.sent', details: { kind: 'password-reset', attempts: 3 } })]);
    } finally {
      deferrals = 0;
      await service.close();
    }
  });
});

describeIfPostgres('the outbox with two instances on one Postgres', (serverUrl) => {
  let server: TestSmtpServer;
  let fresh: FreshDatabase;
  // A database of its own: delivery workers claim every due message in their database.
  beforeAll(async () => {
    server = await startSmtpServer();
    fresh = await createFreshDatabase(serverUrl);
  });
  afterAll(async () => {
    await server.stop();
    await fresh.drop();
  });

  it('each message goes out once, whichever instance took the request and whichever delivers', async () => {
    const [a, b] = [await instance(server, { database: { postgres: fresh.url } }), await instance(server, { database: { postgres: fresh.url } })];
    try {
      const members: string[] = [];
      for (let i = 0; i < 30; i += 1) members.push(await signUp(i % 2 === 0 ? a : b, 'pair'));
      for (const [i, email] of members.entries()) await askForReset(i % 2 === 0 ? b : a, email);

      await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
      const counts = members.map((email) => [receivedBy(server, email, VERIFY_SUBJECT).length, receivedBy(server, email, RESET_SUBJECT).length]);
      expect(counts).toEqual(members.map(() => [1, 1]));
      expect(server.received).toHaveLength(60);

      // A link sent through one instance resets the password through the other, once.
      const token = resetTokenIn(receivedBy(server, members[0]!, RESET_SUBJECT)[0]!.raw);
      const reset = await request(b.listener).post(`${AUTH}/password/reset`).send({ token, password: 'a new passphrase here' });
      expect(reset.status).toBe(200);
      expect((await request(a.listener).post(`${AUTH}/password/reset`).send({ token, password: 'another passphrase' })).body)
        .toEqual({ error: 'Invalid or expired reset token' });
      expect((await request(a.listener).post(`${AUTH}/login`).send({ email: members[0], password: 'a new passphrase here' })).status).toBe(200);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
