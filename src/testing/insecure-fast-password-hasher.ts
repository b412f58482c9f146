import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PasswordHasher } from '../application/ports/password-hasher';

const SCHEME = 'insecure-test-sha256';
const SALT_BYTES = 8;

export class InsecureHasherInProductionError extends Error {
  override readonly name = 'InsecureHasherInProductionError';
  constructor() {
    super('InsecureFastPasswordHasherForTestsOnly refuses to run with NODE_ENV=production (or prod, in any case): it stores passwords with one SHA-256');
  }
}

/**
 * Whether NODE_ENV names production however it is written: `production` or `prod`, ignoring case
 * and white space. Deployments spell it in all of these ways, and a refusal that matched only the
 * exact word would let the kit run in one of them.
 */
export function namesProduction(nodeEnv: string | undefined): boolean {
  const word = (nodeEnv ?? '').replace(/\s+/g, '').toLowerCase();
  return word === 'production' || word === 'prod';
}

function digest(salt: string, password: string): Buffer {
  return createHash('sha256').update(salt).update('\0').update(password, 'utf8').digest();
}

/**
 * One salted SHA-256 per password: microseconds instead of the production hasher's deliberate tens
 * of milliseconds, so a test file can sign up hundreds of users. NOT a password hash: anyone holding
 * a stored value can try billions of guesses a second. It exists for the test kit alone, refuses to
 * be constructed when NODE_ENV names production (namesProduction), and writes
 * `insecure-test-sha256$...` values that the production (scrypt) hasher never accepts, so a row it
 * made cannot log in to a real service.
 */
export class InsecureFastPasswordHasherForTestsOnly implements PasswordHasher {
  constructor(nodeEnv: string | undefined = process.env.NODE_ENV) {
    if (namesProduction(nodeEnv)) throw new InsecureHasherInProductionError();
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES).toString('hex');
    return `${SCHEME}$${salt}$${digest(salt, password).toString('hex')}`;
  }

  async verify(password: string, storedHash: string): Promise<boolean> {
    const parts = storedHash.split('$');
    if (parts.length !== 3 || parts[0] !== SCHEME) return false;
    const expected = Buffer.from(parts[2]!, 'hex');
    const actual = digest(parts[1]!, password);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  needsRehash(storedHash: string): boolean {
    return !storedHash.startsWith(`${SCHEME}$`);
  }
}
