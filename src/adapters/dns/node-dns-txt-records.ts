import { Resolver } from 'node:dns/promises';
import type { DnsTxtRecords } from '../../application/ports/dns-txt-records';
import { DnsUnavailable } from '../../domain/errors';

/** Answers that mean "there is no such record", as opposed to "DNS could not be asked". */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

export interface NodeDnsOptions {
  /** Resolvers to ask (`address` or `address:port`); the host's own unless given. */
  readonly servers?: readonly string[];
  /** How long one try may take, and how many tries: a request waits on them. */
  readonly timeoutMs?: number;
  readonly tries?: number;
}

const TIMEOUT_MS = 3_000;
const TRIES = 2;

/** TXT lookups through node:dns, from the host's resolvers unless others are named. */
export class NodeDnsTxtRecords implements DnsTxtRecords {
  private readonly resolver: Resolver;

  constructor(options: NodeDnsOptions = {}) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? TIMEOUT_MS, tries: options.tries ?? TRIES });
    if (options.servers) this.resolver.setServers([...options.servers]);
  }

  async resolveTxt(name: string): Promise<string[][]> {
    try {
      return await this.resolver.resolveTxt(name);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && ABSENT.has(code)) return [];
      throw new DnsUnavailable();
    }
  }
}
