import { describe, expect, it } from 'vitest';
import { auditCsv, csvField } from './audit-csv';

describe('the audit log as CSV', () => {
  it('quotes fields with commas, quotes or line breaks, and defuses spreadsheet formulas', () => {
    expect(csvField(null)).toBe('');
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
  });

  it('writes a header and one row per event, naming actors by e-mail where known', () => {
    const csv = auditCsv([{
      id: 'e-1', tenant_id: 't-1', actor_user_id: 'u-1', actor_auth: 'jwt', action: 'member.role_changed', target_id: 'u-2',
      client_ip: '127.0.0.1', user_agent: 'curl/8', request_id: 'r-1', occurred_at: '2026-01-31T12:00:00.000Z', details: { from: 'member', to: 'admin' } as unknown as Record<string, never>,
    }], new Map([['u-1', 'ada@example.com']]));
    expect(csv.split('\r\n')).toEqual([
      'occurred_at,action,actor_user_id,actor_email,actor_auth,target_id,client_ip,user_agent,request_id,details',
      '2026-01-31T12:00:00.000Z,member.role_changed,u-1,ada@example.com,jwt,u-2,127.0.0.1,curl/8,r-1,"{""from"":""member"",""to"":""admin""}"',
      '',
    ]);
  });
});
