import { Writable } from 'node:stream';
import pino from 'pino';
import { DevelopmentMailbox } from '../../src/adapters/mail/development-mailbox';
import { SmtpMailer } from '../../src/adapters/mail/smtp-mailer';
import { loadConfig } from '../../src/bootstrap/config';
import { mailerOf } from '../../src/bootstrap/mailer';

const message = (n: number) => ({
  to: `user${n}@example.com`,
  subject: `Message ${n}`,
  text: `Hello.\nOpen https://auth.example.com/verify?token=t${n} then https://other.example.com/second`,
  html: `<p>Hello ${n}</p>`,
});

describe('DevelopmentMailbox', () => {
  it('keeps the messages, newest last, with the configured sender', async () => {
    const mailbox = new DevelopmentMailbox({ from: 'dev@localhost' });
    await mailbox.send(message(1));
    await mailbox.send(message(2));
    expect(mailbox.messages().map((m) => [m.to, m.subject, m.from])).toEqual([
      ['user1@example.com', 'Message 1', 'dev@localhost'],
      ['user2@example.com', 'Message 2', 'dev@localhost'],
    ]);
    expect(mailbox.messages()[1]).toMatchObject({ text: message(2).text, html: message(2).html });
    expect(mailbox.latestTo('user1@example.com')?.subject).toBe('Message 1');
    expect(mailbox.latestTo('nobody@example.com')).toBeUndefined();
  });

  it('keeps only the newest messages up to its capacity', async () => {
    const mailbox = new DevelopmentMailbox({ from: 'dev@localhost', capacity: 3 });
    for (let n = 1; n <= 5; n += 1) await mailbox.send(message(n));
    expect(mailbox.messages().map((m) => m.subject)).toEqual(['Message 3', 'Message 4', 'Message 5']);
  });

  it('keeps the newest 100 by default', async () => {
    const mailbox = new DevelopmentMailbox({ from: 'dev@localhost' });
    for (let n = 1; n <= 101; n += 1) await mailbox.send(message(n));
    expect(mailbox.messages()).toHaveLength(100);
    expect(mailbox.messages()[0]?.subject).toBe('Message 2');
    expect(mailbox.messages()[99]?.subject).toBe('Message 101');
  });

  it('logs one line per message naming the recipient, the subject and the first link', async () => {
    const lines: string[] = [];
    const mailbox = new DevelopmentMailbox({ from: 'dev@localhost', log: (line) => lines.push(line) });
    await mailbox.send(message(7));
    await mailbox.send({ ...message(8), subject: 'Two\nlines', text: 'No link here.' });
    expect(lines).toEqual([
      'mail to "user7@example.com": "Message 7" https://auth.example.com/verify?token=t7',
      'mail to "user8@example.com": "Two\\nlines"',
    ]);
  });
});

describe('mailerOf (the mailer the configuration chooses)', () => {
  function capturingLogger(): { logger: pino.Logger; lines: () => Array<{ level: number; msg: string }> } {
    const chunks: string[] = [];
    const stream = new Writable({ write(chunk: Buffer, _encoding, done) { chunks.push(chunk.toString()); done(); } });
    const logger = pino({ level: 'info' }, pino.multistream([{ stream, level: 'info' }]));
    return { logger, lines: () => chunks.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string }) };
  }
  const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), TENANT_WALL_KEY: 'w'.repeat(32), DATABASE_URL: 'postgres://web@db/x' };

  it('is SMTP when SMTP_URL is set, in production or not', () => {
    const smtp = { SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'no-reply@example.com' };
    expect(mailerOf(loadConfig(smtp), undefined)).toBeInstanceOf(SmtpMailer);
    expect(mailerOf(loadConfig({ ...production, ...smtp, PUBLIC_URL: 'https://auth.example.com' }), undefined)).toBeInstanceOf(SmtpMailer);
  });

  it('is the development mailbox outside production without SMTP_URL, and its lines reach the log', async () => {
    const { logger, lines } = capturingLogger();
    const mailer = mailerOf(loadConfig({}), logger);
    expect(mailer).toBeInstanceOf(DevelopmentMailbox);
    await mailer!.send(message(1));
    logger.flush();
    expect(lines().map((line) => line.msg)).toEqual(['development mailbox: mail to "user1@example.com": "Message 1" https://auth.example.com/verify?token=t1']);
  });

  it('is none in production without SMTP_URL, said once in the log', () => {
    const { logger, lines } = capturingLogger();
    expect(mailerOf(loadConfig(production), logger)).toBeUndefined();
    logger.flush();
    expect(lines()).toEqual([expect.objectContaining({ msg: expect.stringMatching(/e-mail delivery is not configured/) })]);
  });
});
