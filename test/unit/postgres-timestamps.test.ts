import { Client, types } from 'pg';
import { parseTimestamptz, SERVICE_PG_TYPES } from '../../src/adapters/persistence/kysely/driver/postgres-timestamps';
import { describeIfPostgres } from '../support/postgres';

const pgParse = types.getTypeParser(1184, 'text') as (text: string) => Date | number;

/** The same instant, or both not a time at all (pg gives Infinity for 'infinity'). */
function sameAs(text: string): void {
  const ours = parseTimestamptz(text);
  const theirs = pgParse(text);
  const time = (value: Date | number): number => (value instanceof Date ? value.getTime() : value);
  expect({ text, time: time(ours) }).toEqual({ text, time: time(theirs) });
}

describe('parseTimestamptz', () => {
  it("reads every ISO-style timestamptz as pg's own parser does", () => {
    const offsets = ['+00', '-08', '+05:30', '-03:30', '+14', '+00:19:32'];
    const fractions = ['', '.1', '.39', '.393', '.3931', '.393123', '.999999'];
    let instant = Date.UTC(1970, 0, 1, 0, 0, 0);
    for (let i = 0; i < 400; i += 1) {
      instant += 7_919_993_171; // about three months, never a round number
      const [date, time] = new Date(instant).toISOString().slice(0, 19).split('T') as [string, string];
      sameAs(`${date} ${time}${fractions[i % fractions.length]}${offsets[i % offsets.length]}`);
    }
  });

  it.each([
    '0099-03-01 12:00:00+00', // a two-digit year, which Date.UTC would move to the 1900s
    '2026-11-21 09:48:58+00 BC',
    '0044-03-15 12:00:00+00 BC',
    'infinity',
    '-infinity',
    '12345-01-01 00:00:00+00',
    '2026-11-21T09:48:58+00',
    '2026-11-21 09:48:58',
    '2026-11-21 09:48:58.123+0',
  ])('hands anything else to pg\'s parser: %s', (text) => {
    sameAs(text);
  });

  it('is the parser the service\'s pool uses for timestamptz, text format only', () => {
    expect(SERVICE_PG_TYPES.getTypeParser(1184, 'text')).toBe(parseTimestamptz);
    expect(SERVICE_PG_TYPES.getTypeParser(1184, 'binary')).toBe(types.getTypeParser(1184, 'binary'));
    expect(SERVICE_PG_TYPES.getTypeParser(25, 'text')).toBe(types.getTypeParser(25, 'text'));
  });
});

describeIfPostgres('parseTimestamptz on what Postgres sends', (url) => {
  it.each(['UTC', 'America/Los_Angeles', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Europe/Amsterdam'])(
    'gives the instants pg would, with the session in %s', async (zone) => {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`set timezone to '${zone}'`);
        const { rows } = await client.query<{ t: string }>({
          text: `select (timestamptz '1901-12-13 20:45:52.123456+00' + n * interval '97 days 3 hours 17 minutes 31.654321 seconds')::text as t
                 from generate_series(0, 499) as n
                 union all select unnest(array['infinity', '-infinity', '0099-03-01 12:00:00+00', '0001-01-01 00:00:00+00 BC'])::timestamptz::text`,
        });
        expect(rows.length).toBe(504);
        for (const { t } of rows) sameAs(t);
      } finally {
        await client.end();
      }
    });
});
