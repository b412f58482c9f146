import { Resolver } from 'node:dns/promises';
import type { DnsTxtRecords } from '../../application/ports/dns-txt-records';
import { DnsUnavailable } from '../../domain/errors';

/** Answers that mean "there is no such record", as opposed to "DNS could not be asked". */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

/** How long one lookup may take, and how often it is tried: a request waits on it. */
const TIMEOUT_MS = 3_000;
const TRIES = 2;

/** The system's resolvers, through node:dns. */
export class NodeDnsTxtRecords implements DnsTxtRecords {
  private readonly resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });

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
