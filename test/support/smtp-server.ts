import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';

export interface Received {
  readonly envelopeFrom: string | undefined;
  readonly envelopeTo: string[];
  readonly user: string | undefined;
  readonly raw: string;
}

export interface TestSmtpServer {
  /** smtp://mailer:s3cret@127.0.0.1:<port>: the credentials the server accepts. */
  readonly url: string;
  /** Every message accepted, in order. */
  readonly received: Received[];
  stop(): Promise<void>;
}

/**
 * A real SMTP server in this process (the smtp-server package), on a free port of 127.0.0.1; plain
 * text, since the test has no certificate. It accepts the login mailer / s3cret and keeps what it
 * is given; `options` override its handlers (to refuse, or defer, a message).
 */
export async function startSmtpServer(options: Partial<SMTPServerOptions> = {}): Promise<TestSmtpServer> {
  const received: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    closeTimeout: 1_000,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 's3cret') callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid credentials'), { responseCode: 535 }));
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelopeFrom = session.envelope.mailFrom === false ? undefined : session.envelope.mailFrom.address;
        received.push({
          envelopeFrom,
          envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://mailer:s3cret@127.0.0.1:${port}`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(resolve)),
  };
}

/** A message's raw text with quoted-printable soft breaks and escapes undone (nodemailer encodes long lines so). */
export function quotedPrintableDecoded(raw: string): string {
  return raw.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
