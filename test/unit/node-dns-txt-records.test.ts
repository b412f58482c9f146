import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { NodeDnsTxtRecords } from '../../src/adapters/dns/node-dns-txt-records';
import { DnsUnavailable } from '../../src/domain/errors';

const TXT = 16;
const NXDOMAIN = 3;
const SERVFAIL = 2;

/** The question's name, lower-cased, and where the question ends. */
function questionOf(query: Buffer): { name: string; end: number } {
  const labels: string[] = [];
  let at = 12;
  while (query[at] !== 0) {
    const length = query[at]!;
    labels.push(query.subarray(at + 1, at + 1 + length).toString('ascii'));
    at += length + 1;
  }
  return { name: labels.join('.').toLowerCase(), end: at + 5 };
}

/** One TXT answer: a pointer to the question's name, then the record's strings, each with its length. */
function txtAnswer(strings: readonly string[]): Buffer {
  const data = Buffer.concat(strings.map((text) => Buffer.concat([Buffer.from([text.length]), Buffer.from(text, 'ascii')])));
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc00c, 0);
  head.writeUInt16BE(TXT, 2);
  head.writeUInt16BE(1, 4);
  head.writeUInt32BE(60, 6);
  head.writeUInt16BE(data.length, 10);
  return Buffer.concat([head, data]);
}

/** A DNS server on 127.0.0.1 that knows a few TXT records, fails for one name, and knows nothing else. */
async function dnsServer(records: Record<string, readonly (readonly string[])[]>, failing: string): Promise<{ address: string; socket: Socket }> {
  const socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    const { name, end } = questionOf(query);
    const answers = records[name] ?? [];
    const rcode = name === failing ? SERVFAIL : name in records ? 0 : NXDOMAIN;
    const header = Buffer.from(query.subarray(0, 12));
    header.writeUInt16BE(0x8180 | rcode, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(rcode === 0 ? answers.length : 0, 6);
    header.writeUInt32BE(0, 8);
    const reply = Buffer.concat([header, query.subarray(12, end), ...(rcode === 0 ? answers.map(txtAnswer) : [])]);
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${(socket.address() as AddressInfo).port}`, socket };
}

describe('TXT records through node:dns', () => {
  let server: { address: string; socket: Socket };
  let dns: NodeDnsTxtRecords;
  beforeAll(async () => {
    server = await dnsServer({
      '_portcullis-verification.acme.example': [['portcullis-verification=', 'abc'], ['v=spf1 -all']],
      'empty.acme.example': [],
    }, 'broken.acme.example');
    dns = new NodeDnsTxtRecords({ servers: [server.address], timeoutMs: 1_000, tries: 1 });
  });
  afterAll(() => new Promise<void>((resolve) => server.socket.close(() => resolve())));

  it('answers every record at the name, each as the strings it was sent in', async () => {
    expect(await dns.resolveTxt('_portcullis-verification.acme.example')).toEqual([['portcullis-verification=', 'abc'], ['v=spf1 -all']]);
  });

  it('answers none for a name that does not exist or holds no TXT record', async () => {
    expect(await dns.resolveTxt('nobody.acme.example')).toEqual([]);
    expect(await dns.resolveTxt('empty.acme.example')).toEqual([]);
  });

  it('a server failure is DnsUnavailable, not an absent record', async () => {
    await expect(dns.resolveTxt('broken.acme.example')).rejects.toBeInstanceOf(DnsUnavailable);
  });
});
