import { spawnSync } from 'node:child_process';

/**
 * A server some suites need (Postgres, Redis). Its URL variable names it; without one those suites
 * are skipped, unless its REQUIRE_ variable is 1 (CI), where a missing or unreachable server must
 * fail the run rather than silently shrink it.
 */
export interface ExternalService {
  /** For messages: "Postgres", "Redis". */
  readonly label: string;
  readonly urlVariable: string;
  readonly requireVariable: string;
  /** The client package the probe loads, resolved from the project's own node_modules. */
  readonly clientModule: string;
  /**
   * Node source run as `node -e <probe> <client module path> <url>`: exits 0 once it has talked to
   * the server, else writes the reason to stderr and exits 1.
   */
  readonly probe: string;
}

type Availability =
  | { readonly kind: 'available'; readonly url: string }
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'fail'; readonly reason: string };

const PROBE_TIMEOUT_MS = 10_000;

function availability(service: ExternalService, env: NodeJS.ProcessEnv): Availability {
  const url = env[service.urlVariable];
  const required = env[service.requireVariable] === '1';
  if (!url) {
    return required
      ? { kind: 'fail', reason: `${service.requireVariable}=1 but ${service.urlVariable} is not set` }
      : { kind: 'skip', reason: `${service.urlVariable} is not set` };
  }
  const problem = probe(service, url);
  if (problem === null) return { kind: 'available', url };
  const reason = `${service.label} at ${service.urlVariable} is unreachable: ${problem}`;
  return required ? { kind: 'fail', reason } : { kind: 'skip', reason };
}

/** A describe block that runs with the server's URL, is skipped without one, or fails loudly when required. */
export function describeIfAvailable(service: ExternalService, name: string, body: (url: string) => void): void {
  const found = availability(service, process.env);
  if (found.kind === 'available') {
    describe(name, () => body(found.url));
  } else if (found.kind === 'skip') {
    // A URL that was set but does not answer is worth a line: the skip is probably not intended.
    if (process.env[service.urlVariable]) console.warn(`${name}: skipped, ${found.reason}`);
    describe.skip(`${name} (skipped: ${found.reason})`, () => {
      test.todo(`set ${service.urlVariable} to run`);
    });
  } else {
    describe(name, () => {
      test(`${service.label} is available`, () => {
        throw new Error(found.reason);
      });
    });
  }
}

/** Jest collects tests synchronously, so reachability is checked in a child process. Null when it answered. */
function probe(service: ExternalService, url: string): string | null {
  const result = spawnSync(process.execPath, ['-e', service.probe, require.resolve(service.clientModule), url], {
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
  });
  if (result.status === 0) return null;
  return result.error?.message ?? (result.stderr.trim() || `probe exited with ${result.status}`);
}
