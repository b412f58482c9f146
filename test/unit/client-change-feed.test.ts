import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChangeFeed, type CredentialChange } from '../../packages/client/src/change-feed';
import { nodeTransport } from '../../packages/client/src/http-transport';

type Heard = { up: number } | { change: CredentialChange } | { down: string };

/** A change stream that writes, to each connection in turn, the events given for it. */
async function streamServer(connections: string[][]): Promise<{ server: Server; url: string; open: ServerResponse[] }> {
  const open: ServerResponse[] = [];
  let served = 0;
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    open.push(res);
    for (const event of connections[served++] ?? []) res.write(event);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, open };
}

const event = (name: string, data: object): string => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

describe('the client library\'s change feed: session ends, and kinds it does not know', () => {
  it('reads a session end; drops the stream at a change of an unknown kind, then opens it again', async () => {
    const { server, url, open } = await streamServer([
      [
        event('ready', { heartbeat_ms: 60_000, position: 1 }),
        event('change', { kind: 'session', session_id: 's1', position: 2 }),
        // What a newer Portcullis might send: whatever it names could be remembered here.
        event('change', { kind: 'grant', grant_id: 'g1', position: 3 }),
      ],
      [event('ready', { heartbeat_ms: 60_000, position: 3 })],
    ]);
    const heard: Heard[] = [];
    let upAgain!: () => void;
    const secondUp = new Promise<void>((resolve) => { upAgain = resolve; });
    const transport = nodeTransport();
    const feed = new ChangeFeed({ url, serviceKey: 'pcsk_test', minReconnectMs: 1, maxReconnectMs: 1 }, {
      up: (position) => {
        heard.push({ up: position });
        if (heard.filter((h) => 'up' in h).length === 2) upAgain();
      },
      change: (change) => heard.push({ change }),
      down: (reason) => heard.push({ down: reason.message }),
      closed: () => undefined,
    }, transport);
    try {
      feed.start();
      await secondUp;
      expect(heard).toEqual([
        { up: 1 },
        { change: { kind: 'session', sessionId: 's1', position: 2 } },
        { down: 'change feed: an event could not be read' },
        { up: 3 },
      ]);
    } finally {
      feed.close();
      transport.close();
      for (const res of open) res.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
