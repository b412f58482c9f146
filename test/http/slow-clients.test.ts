import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer } from '../../src/bootstrap/http-server';
import { buildTestApp } from '../support/http-app';
import { RawConnection } from '../process/raw-http';

// Small limits so the test takes a second, not the defaults' 10 and 30. Node's own timers decide
// when to cut a connection, so real time has to pass here: no Clock port reaches them.
const TIMEOUTS = { headersTimeoutMs: 400, requestTimeoutMs: 800 };
const DRIP_MS = 50;

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends `text` a byte every DRIP_MS until the whole of it is out or the server hung up; answers when it hung up. */
async function drip(connection: RawConnection, text: string, forMs: number): Promise<number | undefined> {
  const started = Date.now();
  for (const byte of text) {
    if (connection.isClosed) break;
    connection.write(byte);
    await new Promise((resolve) => setTimeout(resolve, DRIP_MS));
    if (Date.now() - started > forMs) break;
  }
  return connection.isClosed ? (await connection.closed) - started : undefined;
}

describe('slow clients', () => {
  const servers: Server[] = [];
  let port: number;
  let defaultPort: number;
  beforeAll(async () => {
    const { app } = await buildTestApp();
    const server = createHttpServer(TIMEOUTS);
    server.on('request', app);
    // Node's defaults (60 s for headers, 300 s for a request) beside it, to show what the limits change.
    const plain = createServer(app);
    servers.push(server, plain);
    [port, defaultPort] = await Promise.all([listening(server), listening(plain)]);
  });
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  const slowHeaders = `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'x'.repeat(200)}\r\n\r\n`;
  const slowBody = (body: string) =>
    `POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;

  it('answers 408 and closes a connection whose headers arrive a byte at a time', async () => {
    const [limited, control] = await Promise.all([RawConnection.open(port), RawConnection.open(defaultPort)]);
    const [cutAfter, controlCut] = await Promise.all([drip(limited, slowHeaders, 3_000), drip(control, slowHeaders, 1_500)]);
    expect(cutAfter).toBeDefined();
    expect(cutAfter!).toBeLessThan(TIMEOUTS.headersTimeoutMs + 1_500);
    expect((await limited.response(1_000)).status).toBe(408);
    // The same client, under Node's defaults, was still connected.
    expect(controlCut).toBeUndefined();
    control.socket.destroy();
  });

  it('closes a connection whose body arrives a byte at a time, once the whole request has taken too long', async () => {
    const body = JSON.stringify({ email: 'slow@example.com', password: 'a'.repeat(200) });
    const connection = await RawConnection.open(port);
    connection.write(slowBody(body)); // the headers at once
    const cutAfter = await drip(connection, body, 4_000);
    expect(cutAfter).toBeDefined();
    expect(cutAfter!).toBeLessThan(TIMEOUTS.requestTimeoutMs + 1_500);
  });

  it('serves a client that sends at a normal pace', async () => {
    const connection = await RawConnection.open(port);
    connection.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect((await connection.response(2_000)).status).toBe(200);
    connection.socket.destroy();
  });
});
