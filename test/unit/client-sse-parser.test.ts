import { SseParser } from '../../packages/client/src/sse-parser';

describe('the client library reading server-sent events', () => {
  it('reads events split anywhere, with LF, CRLF or CR line ends, skipping comments', () => {
    const text = 'event: ready\r\ndata: {"heartbeat_ms":15000}\r\n\r\n: a comment\n\nevent: change\ndata: {"kind":"user",\ndata: "user_id":"u"}\n\rdata:plain\r\r';
    for (let cut = 0; cut <= text.length; cut += 1) {
      const parser = new SseParser();
      // A CR that ends what has arrived may be half of a CRLF: the comment after it says it is not.
      const events = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut)), ...parser.push(': next\n')];
      expect(events).toEqual([
        { event: 'ready', data: '{"heartbeat_ms":15000}' },
        { event: 'change', data: '{"kind":"user",\n"user_id":"u"}' },
        { event: 'message', data: 'plain' },
      ]);
    }
  });

  it('reads a CRLF split between two chunks as one line end', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\r')).toEqual([]);
    expect(parser.push('\ndata: b\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'message', data: 'a\nb' }]);
  });

  it('gives each event once, in order, however many one chunk completes', () => {
    const parser = new SseParser();
    expect(parser.push('event: change\ndata: 1\n\nevent: change\ndata: 2\n\ndata: 3')).toEqual([
      { event: 'change', data: '1' },
      { event: 'change', data: '2' },
    ]);
    expect(parser.push('\n\n')).toEqual([{ event: 'message', data: '3' }]);
  });

  it('ignores id, retry and unknown fields, and sends nothing for an event without data', () => {
    const parser = new SseParser();
    const events = parser.push('id: 7\nretry: 1000\nretry: soon\nfoo: bar\nevent: reset\n\nevent: change\nid: 8\ndata\n\n');
    expect(events).toEqual([{ event: 'change', data: '' }]);
  });
});
