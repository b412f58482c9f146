import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { ServiceProcess } from '../support/service-process';

/**
 * The start commands docs/operations.md gives for a container, run as a container runs them: as
 * process 1 of a PID namespace of their own (`unshare --pid --fork`), which is what `docker stop`
 * and Kubernetes send SIGTERM to. When process 1 exits, the kernel kills every other process of
 * the namespace, as a container's end does: a launcher that does not hand the signal to node leaves
 * no drain, no readiness flip and no flush. Needs the build (`npm run build`) and root (to make the
 * namespace).
 */
const namespaces = spawnSync('unshare', ['--pid', '--fork', 'true'], { encoding: 'utf8' });
const canUnshare = namespaces.status === 0;
if (!canUnshare) {
  const why = `unshare --pid --fork is not available (${namespaces.error?.message ?? namespaces.stderr.trim()}); install util-linux and run as root`;
  // CI must run this: there, a missing unshare is a failure, never a skip.
  if (process.env['CI'] === 'true') throw new Error(why);
  console.warn(`container start tests skipped: ${why}`);
}
const describeIfUnshare = canUnshare ? describe : describe.skip;

/** The pids whose parent is `pid` (as seen from this namespace). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // the process ended while being read
    }
  }
  return children;
}

describeIfUnshare('the documented container start command, as process 1', () => {
  let service: ServiceProcess | undefined;
  afterEach(() => service?.kill());

  it.each([
    ['CMD ["npm", "start"]', ['npm', 'start']],
    ['CMD ["sh", "scripts/start.sh"]', ['sh', 'scripts/start.sh']],
  ])('%s: SIGTERM to process 1 drains the service, which exits 0', async (_form, command) => {
    service = await ServiceProcess.start({ SHUTDOWN_DELAY_MS: '200' }, { command: ['unshare', '--pid', '--fork', ...command] });
    const [first] = childrenOf(service.pid); // process 1 of the namespace: what the container runtime signals
    expect(first).toBeDefined();

    process.kill(first!, 'SIGTERM');
    await service.waitForLog((line) => line.msg === 'shutting down: readiness now 503');
    await service.waitForLog((line) => line.msg === 'closed database');
    expect(await service.exited).toMatchObject({ code: 0, signal: null });
    expect(service.logs.find((line) => line.msg === 'shutdown complete')).toMatchObject({ drained: true, closed: true });
  }, 120_000);
});
