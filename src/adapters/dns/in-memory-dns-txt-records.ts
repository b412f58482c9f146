import type { DnsTxtRecords } from '../../application/ports/dns-txt-records';
import { DnsUnavailable } from '../../domain/errors';

/**
 * TXT records held in memory, for tests and for running the service where DNS cannot be reached:
 * a test publishes the record a tenant was given, as its owner would in their DNS.
 */
export class InMemoryDnsTxtRecords implements DnsTxtRecords {
  private readonly records = new Map<string, string[][]>();
  private unavailable = false;

  /** Adds one record at `name` (several strings: one record sent in parts). Names are matched in any case. */
  publish(name: string, ...strings: string[]): void {
    const key = name.toLowerCase();
    this.records.set(key, [...(this.records.get(key) ?? []), strings]);
  }

  /** Drops every record at `name`. */
  withdraw(name: string): void {
    this.records.delete(name.toLowerCase());
  }

  /** From now on every lookup fails as an unreachable DNS server does (or succeeds again). */
  failLookups(failing = true): void {
    this.unavailable = failing;
  }

  async resolveTxt(name: string): Promise<string[][]> {
    if (this.unavailable) throw new DnsUnavailable();
    return (this.records.get(name.toLowerCase()) ?? []).map((strings) => [...strings]);
  }
}
