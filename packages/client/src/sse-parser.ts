import { createParser, type EventSourceParser } from 'eventsource-parser';

/** One server-sent event: its name (`message` when the server gave none) and its data lines joined. */
export interface ServerSentEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * The text/event-stream format, read incrementally by eventsource-parser: feed it chunks of text as
 * they arrive, get back the events completed by each. `id` and `retry` are ignored (Portcullis's
 * feed does not resume: a reconnecting verifier starts from nothing), and so are unknown fields, as
 * the format says.
 */
export class SseParser {
  private completed: ServerSentEvent[] = [];
  private readonly parser: EventSourceParser = createParser({
    onEvent: ({ event, data }) => {
      this.completed.push({ event: event ?? 'message', data });
    },
  });

  push(chunk: string): ServerSentEvent[] {
    this.parser.feed(chunk);
    const events = this.completed;
    this.completed = [];
    return events;
  }
}
