import { SseParser } from '../../packages/client/src/sse-parser';

describe('the client library reading server-sent events', () => {
  it('reads events split anywhere, with LF, CRLF or CR line ends, skipping comments', () => {
    const text = 'event: ready\r\ndata: {"heartbeat_ms":15000}\r\n\r\n: a comment\n\nevent: change\ndata: {"kind":"user",\ndata: "user_id":"u"}\n\rdata:plain\r\r';
    for (let cut = 0; cut <= text.length; cut += 1) {
      const parser = new SseParser();
      const events = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      expect(events).toEqual([
        { event: 'ready', data: '{"heartbeat_ms":15000}' },
        { event: 'change', data: '{"kind":"user",\n"user_id":"u"}' },
        { event: 'message', data: 'plain' },
      ]);
    }
  });
});
