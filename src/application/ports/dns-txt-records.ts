/** DNS TXT lookups, for the proof that a tenant holds a domain. Network work: call it before a unit of work. */
export interface DnsTxtRecords {
  /**
   * The TXT records at `name`, each as the strings it was sent in; none (an empty list) when the
   * name or its TXT records do not exist. Throws DnsUnavailable when DNS could not be asked.
   */
  resolveTxt(name: string): Promise<string[][]>;
}
