/** The first match names the browser: Edge and Opera carry "Chrome" too, and Chrome carries "Safari". */
const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/Chrom(?:e|ium)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[^]*Safari\//, 'Safari'],
];

const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/Windows/, 'Windows'],
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

const LONGEST = 40;

/**
 * A session's user agent in a few words ("Firefox 133 on Windows"), for a person to recognise their
 * own devices. Only a guess from the string the client sent: anything unrecognised is shown as sent,
 * shortened, and the page keeps the full string beside it.
 */
export function deviceName(userAgent: string | null): string {
  const agent = userAgent?.trim() ?? '';
  if (agent === '') return 'Unknown device';
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent));
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  if (browser) {
    const version = browser[0].exec(agent)?.[1];
    return `${browser[1]} ${version}${system ? ` on ${system}` : ''}`;
  }
  return agent.length > LONGEST ? `${agent.slice(0, LONGEST - 1)}…` : agent;
}
