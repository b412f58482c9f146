import { NewPasswordCheck } from '../../src/application/passwords/new-password-check';
import { PackagedCommonPasswords } from '../../src/adapters/passwords/packaged-common-passwords';
import { PasswordContainsEmail, PasswordContainsTenantName, PasswordTooCommon } from '../../src/domain/errors';
import { contextWords, strictPasswordRefusal } from '../../src/domain/password-policy';

/** A stand-in list for the pure rules: the packaged one is tested on its own below. */
const LISTED = new Set(['password1', 'sunshine1']);
const isListed = (password: string): boolean => LISTED.has(password.toLowerCase());

describe('the strict password rules (domain)', () => {
  const ada = { email: 'ada.lovelace@example.com', tenantName: 'Analytical Engines' };

  it('V6.2.4, V6.2.12: refuses a password on the common list, whatever its case', () => {
    expect(strictPasswordRefusal('password1', ada, isListed)).toBe('common');
    expect(strictPasswordRefusal('PassWord1', ada, isListed)).toBe('common');
  });

  it('V6.2.11: refuses a password containing the address, or a word of it of four or more characters', () => {
    expect(strictPasswordRefusal('ada.lovelace@example.com', ada, isListed)).toBe('contains_email');
    expect(strictPasswordRefusal('my name is AdaLovelace!', ada, isListed)).toBe('contains_email');
    expect(strictPasswordRefusal('lovelace-1815-1852', ada, isListed)).toBe('contains_email');
    // "ada" is too short to count: it would refuse "canada", "lemonade", ...
    expect(strictPasswordRefusal('lemonade in canada', ada, isListed)).toBeNull();
  });

  it('V6.2.11: refuses a password containing the organisation name, or a word of it of four or more characters', () => {
    expect(strictPasswordRefusal('analyticalengines', ada, isListed)).toBe('contains_tenant_name');
    expect(strictPasswordRefusal('Engines run all night', ada, isListed)).toBe('contains_tenant_name');
    expect(strictPasswordRefusal('correct horse battery', ada, isListed)).toBeNull();
  });

  it('leaves out the organisation name when it is not known, and short names altogether', () => {
    expect(strictPasswordRefusal('analytical engines', { email: ada.email }, isListed)).toBeNull();
    expect(strictPasswordRefusal('acme co rules the world', { email: 'x@y.z', tenantName: 'Co' }, isListed)).toBeNull();
  });

  it('answers the list first: a common password is the worst reason', () => {
    expect(strictPasswordRefusal('sunshine1', { email: 'sunshine@example.com', tenantName: 'Sunshine' }, isListed)).toBe('common');
  });

  it('compares letters as people see them: case and the two spellings of an accented letter are one', () => {
    const cafe = { email: 'x@example.com', tenantName: 'Caf\u00e9 Ren\u00e9' };
    expect(strictPasswordRefusal('my CAFE\u0301 forever', cafe, isListed)).toBe('contains_tenant_name');
    expect(contextWords('Caf\u00e9 Ren\u00e9')).toEqual(['caf\u00e9ren\u00e9', 'caf\u00e9', 'ren\u00e9']);
  });
});

describe('NewPasswordCheck (application)', () => {
  const commonPasswords = { has: isListed };

  it('under the default policy checks nothing and reads no context, so nothing changes', async () => {
    const check = new NewPasswordCheck({ policy: 'default', commonPasswords });
    const context = jest.fn(async () => ({ email: 'a@example.com' }));
    await expect(check.check('password1', context)).resolves.toBeUndefined();
    expect(context).not.toHaveBeenCalled();
  });

  it('under the strict policy throws one error per reason, with its message', async () => {
    const check = new NewPasswordCheck({ policy: 'strict', commonPasswords });
    const context = { email: 'grace.hopper@example.com', tenantName: 'Compilers Ltd' };
    await expect(check.check('password1', context)).rejects.toThrow(new PasswordTooCommon());
    await expect(check.check('password1', context)).rejects.toThrow('Password is too common');
    await expect(check.check('hopper was here', async () => context)).rejects.toThrow(new PasswordContainsEmail());
    await expect(check.check('hopper was here', context)).rejects.toThrow('Password must not contain your email address');
    await expect(check.check('we write compilers', context)).rejects.toThrow(new PasswordContainsTenantName());
    await expect(check.check('we write compilers', context)).rejects.toThrow('Password must not contain the organisation name');
    await expect(check.check('correct horse battery', context)).resolves.toBeUndefined();
  });
});

describe('the packaged list (adapter)', () => {
  const list = new PackagedCommonPasswords();

  it('V6.2.4, V6.2.12: holds more than 100,000 passwords that the length rule alone would let through, read from disk', () => {
    expect(list.size).toBeGreaterThanOrEqual(100_000);
  });

  it('finds common and breached passwords ignoring case, and not a passphrase', () => {
    for (const common of ['password1', 'PASSWORD1', 'iloveyou2', 'qwertyuiop', 'trustno1', 'letmein123']) expect(list.has(common)).toBe(true);
    for (const fine of ['correct horse battery', 'plum orchard at noon']) expect(list.has(fine)).toBe(false);
  });

  it('refuses to answer from a list it cannot read, rather than let every password through', () => {
    const broken = new PackagedCommonPasswords('/nonexistent/passwords.txt.gz');
    expect(() => broken.has('password1')).toThrow(/ENOENT/);
  });
});
