import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { openMemoryStorage } from '../bootstrap/database';
import { ChangeStreams } from './change-streams';
import { assembleParts, TestPortcullis, type TestPortcullisOptions, type TestPortcullisParts } from './create-test-portcullis';

/** What a probe gives back: a supertest response, a fetch Response, anything with a status. */
export interface ProbeAnswer {
  readonly status: number;
  readonly body?: unknown;
}

export interface SeenAfterOptions {
  /**
   * How long, in real milliseconds, the downstream may keep its old answer after the change has
   * reached every open stream; 2,000 when unset. Only a broken downstream ever uses it up.
   */
  readonly timeoutMs?: number;
}

/** The downstream kept its old answer after the change reached it: what it still admits, it admits wrongly. */
export class DownstreamDidNotFollow extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DownstreamDidNotFollow';
  }
}

const DEFAULT_TIMEOUT_MS = 2_000;

function shown(answer: ProbeAnswer): string {
  const body = answer.body === undefined ? '' : ` ${JSON.stringify(answer.body)}`;
  return `${answer.status}${body}`;
}

const isRefusal = (answer: ProbeAnswer): boolean => answer.status === 401 || answer.status === 403;

/** One turn of the event loop: whatever the sockets have received gets read. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The kit on a real port: a fake Portcullis that downstream services reach over HTTP with the
 * client library (introspection and the change stream), with the world helpers of the kit.
 */
export class TestPortcullisServer extends TestPortcullis {
  /** `http://127.0.0.1:<port>`: the client library's `url`. */
  readonly url: string;
  /** The kit's clock in epoch milliseconds: the client library's `now`, so expiry follows `advanceTime`. */
  readonly now = (): number => this.clock.now().getTime();

  constructor(parts: TestPortcullisParts, private readonly server: Server, private readonly streams: ChangeStreams) {
    super(parts);
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Change streams open on the fake (a downstream's library keeps one while it remembers answers). */
  get openChangeStreams(): number {
    return this.streams.count;
  }

  /**
   * Revokes the service key, as an operator would: its introspections are answered 401 from now on,
   * and its open change streams are sent `reset` and closed; resolves once they are.
   */
  override async revokeServiceKey(rawKey: string): Promise<void> {
    await super.revokeServiceKey(rawKey);
    await this.streams.end(rawKey);
  }

  /**
   * Makes `change` and resolves with the downstream's first answer to `probe` that `expected`
   * accepts, once the change has reached it. Deterministic, with no sleep:
   *
   * 1. `probe` is asked first and must not already give the expected answer (it would prove nothing),
   *    and a change stream must be open (a downstream that follows none remembers nothing, and the
   *    test would not be checking that the change travels).
   * 2. `change` runs; once the kit has applied every change it committed, they must have put
   *    something on the streams (a change event, or a stream's end).
   * 3. The kit waits until what it wrote on every stream has been handed to the sockets.
   * 4. `probe` is asked again, one turn of the event loop apart, for as long as the downstream gives
   *    its old answer (its library reads the socket on a later turn), and at most `timeoutMs`.
   *    Any other answer fails at once. The result is an answer the downstream gave after the change.
   */
  async seenAfter<A extends ProbeAnswer>(
    change: () => Promise<unknown>,
    probe: () => PromiseLike<A>,
    expected: (answer: A) => boolean,
    options: SeenAfterOptions = {},
  ): Promise<A> {
    const before = await probe();
    if (expected(before)) throw new Error(`the probe already answered ${shown(before)} before the change: the test would prove nothing`);
    if (this.streams.count === 0) {
      throw new Error('no change stream is open on the test Portcullis: await the client library\'s feedReady() first, or nothing is remembered and the change has nowhere to travel');
    }
    const carried = this.streams.carried;
    const streams = this.streams.count;
    await change();
    await this.caughtUp();
    if (this.streams.carried === carried) throw new Error('the change put nothing on the change streams: make it through the kit (pc.revokeApiKey, pc.removeMember, ...)');
    await this.streams.written();

    const deadline = performance.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let probes = 1;
    let answer = await probe();
    while (!expected(answer)) {
      if (answer.status !== before.status) {
        throw new Error(`after the change the downstream answered ${shown(answer)}: neither its answer before (${shown(before)}) nor the one expected`);
      }
      if (performance.now() >= deadline) {
        throw new DownstreamDidNotFollow(`the downstream still answered ${shown(answer)} to ${probes} probes over ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms after the change reached its ${streams} open change stream(s)`);
      }
      await nextTurn();
      probes += 1;
      answer = await probe();
    }
    return answer;
  }

  /**
   * Makes `change` (a revocation, a removal, a demotion) and resolves with the downstream's refusal
   * (401 or 403) of `probe`, which it must have admitted before. See `seenAfter` for how it waits.
   */
  async refusedAfter<A extends ProbeAnswer>(change: () => Promise<unknown>, probe: () => PromiseLike<A>, options: SeenAfterOptions = {}): Promise<A> {
    const admittedOrRefused = async (): Promise<A> => {
      const answer = await probe();
      if (answer.status >= 300 && !isRefusal(answer)) throw new Error(`the probe answered ${shown(answer)}: neither admitted nor refused`);
      return answer;
    };
    return this.seenAfter(change, admittedOrRefused, isRefusal, options);
  }

  /** Ends every change stream, closes the server and every connection to it, then the storage. */
  override async close(): Promise<void> {
    await this.streams.end();
    if (this.server.listening) {
      const closed = new Promise<void>((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
      this.server.closeAllConnections();
      await closed;
    }
    await super.close();
  }
}

/**
 * The test kit on an ephemeral port of 127.0.0.1, for a downstream service's tests: the same
 * composition as createTestPortcullis (memory storage, the kit's clock, the modules given), served
 * over HTTP so that the client library introspects and follows the change stream as in production.
 */
export async function startTestPortcullis(options: TestPortcullisOptions = {}): Promise<TestPortcullisServer> {
  const parts = await assembleParts(openMemoryStorage(), options);
  const streams = new ChangeStreams();
  const server = createServer(streams.watch(parts.app));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return new TestPortcullisServer(parts, server, streams);
}
