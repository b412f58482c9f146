import { createServer, type AddressInfo } from 'node:net';
import { quotedPrintableDecoded, startSmtpServer as startServer } from '../support/smtp-server';
import { MailDeliveryFailed } from '../../src/application/ports/mailer';
import { SmtpMailer } from '../../src/adapters/mail/smtp-mailer';

const message = {
  to: 'ada@example.com',
  subject: 'Reset your password',
  text: 'Follow https://auth.example.com/reset?token=abc to choose a new password.',
  html: '<p>Follow <a href="https://auth.example.com/reset?token=abc">this link</a>.</p>',
};

async function failureOf(promise: Promise<unknown>): Promise<MailDeliveryFailed> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(MailDeliveryFailed);
    return error as MailDeliveryFailed;
  }
  throw new Error('the send was accepted');
}

describe('SmtpMailer against an SMTP server', () => {
  it('delivers the message with its subject, text, html, sender and recipient, logging in with the URL\'s credentials', async () => {
    const server = await startServer();
    try {
      await new SmtpMailer({ url: server.url, from: 'Portcullis <no-reply@example.com>' }).send(message);
      expect(server.received).toHaveLength(1);
      const [mail] = server.received;
      expect(mail).toMatchObject({ envelopeFrom: 'no-reply@example.com', envelopeTo: ['ada@example.com'], user: 'mailer' });
      expect(mail!.raw).toMatch(/^Subject: Reset your password\r$/m);
      expect(mail!.raw).toMatch(/^From: Portcullis <no-reply@example\.com>\r$/m);
      expect(mail!.raw).toMatch(/^To: ada@example\.com\r$/m);
      expect(mail!.raw).toMatch(/^Content-Type: text\/plain/m);
      expect(mail!.raw).toMatch(/^Content-Type: text\/html/m);
      expect(mail!.raw).toContain('Follow https://auth.example.com/reset?token=abc to choose a new password.');
      expect(quotedPrintableDecoded(mail!.raw)).toContain(message.html);
    } finally {
      await server.stop();
    }
  });

  it('reports a 4xx answer as a temporary failure', async () => {
    const server = await startServer({
      onMailFrom: (_address, _session, callback) => callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 })),
    });
    try {
      const failure = await failureOf(new SmtpMailer({ url: server.url, from: 'no-reply@example.com' }).send(message));
      expect(failure.temporary).toBe(true);
      expect(failure.message).toContain('451');
      expect(server.received).toHaveLength(0);
    } finally {
      await server.stop();
    }
  });

  it('reports a 5xx answer as a permanent failure', async () => {
    const server = await startServer({
      onRcptTo: (_address, _session, callback) => callback(Object.assign(new Error('No such user'), { responseCode: 550 })),
    });
    try {
      const failure = await failureOf(new SmtpMailer({ url: server.url, from: 'no-reply@example.com' }).send(message));
      expect(failure.temporary).toBe(false);
      expect(failure.message).toContain('550');
    } finally {
      await server.stop();
    }
  });

  it('reports refused credentials (535) as a permanent failure', async () => {
    const server = await startServer();
    try {
      const url = server.url.replace('s3cret', 'wrong');
      const failure = await failureOf(new SmtpMailer({ url, from: 'no-reply@example.com' }).send(message));
      expect(failure.temporary).toBe(false);
      expect(server.received).toHaveLength(0);
    } finally {
      await server.stop();
    }
  });

  it('reports a closed port as a temporary failure', async () => {
    // A port that was just free: bound, then released, so nothing listens on it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const failure = await failureOf(new SmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: 'no-reply@example.com' }).send(message));
    expect(failure.temporary).toBe(true);
  });
});
