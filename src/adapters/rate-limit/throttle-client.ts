import { ipKeyGenerator } from 'express-rate-limit';

/**
 * The client part of a login-throttle key: the address as the rate limits count it (IPv6 by its
 * /56, so one host cannot rotate through its subnet for fresh counts), or one shared bucket for an
 * attempt whose address is not known (a script, a test).
 */
export function throttleClient(address: string | undefined): string {
  return address ? ipKeyGenerator(address) : 'unknown';
}
