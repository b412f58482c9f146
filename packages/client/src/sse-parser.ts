/** One server-sent event: its name (`message` when the server gave none) and its data lines joined. */
export interface ServerSentEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * The text/event-stream format, read incrementally: feed it chunks of text as they arrive, get
 * back the events completed by each. Lines end in LF, CRLF or CR; a blank line ends an event;
 * lines starting with a colon are comments; `id` and `retry` are read and ignored (Portcullis's
 * feed does not resume: a reconnecting verifier starts from nothing).
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private pendingCr = false;

  push(chunk: string): ServerSentEvent[] {
    let text = chunk;
    // A CR at the end of the last chunk may be the first half of a CRLF.
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = text.endsWith('\r');
    this.buffer += text;
    const events: ServerSentEvent[] = [];
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop() ?? '';
    for (const line of lines) {
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): ServerSentEvent | undefined {
    if (line === '') {
      if (this.data.length === 0) {
        this.event = '';
        return undefined;
      }
      const event = { event: this.event || 'message', data: this.data.join('\n') };
      this.event = '';
      this.data = [];
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return undefined;
  }
}
