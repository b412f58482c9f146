import { randomBytes } from 'node:crypto';
import { domainOfEmail, normaliseDomain, recordsHold, verificationValue } from '../../src/domain/sso';

describe('single sign-on domain names and verification records', () => {
  it('a verification value is the prefix and the random bytes in base64url, whatever their length', () => {
    for (const length of [32, 31, 30, 1]) {
      const bytes = randomBytes(length);
      expect(verificationValue(bytes.toString('hex'))).toBe(`portcullis-verification=${bytes.toString('base64url')}`);
    }
  });

  it('domains are stored in lower case without the trailing dot; anything else is not a domain', () => {
    expect(normaliseDomain('Mail.Example.COM.')).toBe('mail.example.com');
    expect(normaliseDomain('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
    for (const bad of ['example', '192.168.0.1', 'example..com', 'exa_mple.com', '.example.com', 'example.com..', `${'a'.repeat(64)}.com`]) {
      expect(normaliseDomain(bad)).toBeNull();
    }
    expect(normaliseDomain(`${'a.'.repeat(126)}com`)).toBeNull();
    expect(domainOfEmail('ada@Sub.Example.com')).toBe('sub.example.com');
    expect(domainOfEmail('no-at-sign')).toBeNull();
  });

  it('a record counts only whole: its strings joined, never a part of it', () => {
    const value = 'portcullis-verification=abc';
    expect(recordsHold([['portcullis-verification=', 'abc']], value)).toBe(true);
    expect(recordsHold([['portcullis-verification='], ['abc']], value)).toBe(false);
    expect(recordsHold([[`${value}d`]], value)).toBe(false);
    expect(recordsHold([], value)).toBe(false);
  });
});
