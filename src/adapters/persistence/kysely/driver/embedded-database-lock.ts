import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

/**
 * The embedded database (PGlite) is a Postgres server inside one process: a second process that
 * opens the same folder does not wait or share, it corrupts the server's state and dies inside
 * WebAssembly (`RuntimeError: Aborted()`), or seems to work and loses its writes. So whoever opens
 * a folder holds `<folder>.lock` (beside it: PGlite owns what is inside), naming its pid and
 * command, until it closes the database or exits.
 */
export class EmbeddedDatabaseInUse extends Error {
  override readonly name = 'EmbeddedDatabaseInUse';
}

interface Holder {
  readonly pid: number;
  readonly command: string;
}

export interface EmbeddedDatabaseLock {
  release(): void;
}

/** Folders this process holds: a second open of one here is refused as well (the same corruption). */
const heldHere = new Set<string>();

export function lockEmbeddedDatabase(dataDir: string): EmbeddedDatabaseLock {
  const folder = resolve(dataDir);
  const lockPath = `${folder.replace(/[\\/]+$/, '')}.lock`;
  const me: Holder = { pid: process.pid, command: describeThisProcess() };
  if (heldHere.has(lockPath)) throw inUse(dataDir, me);
  // Written whole to a file of its own, then linked into place: link fails if the lock exists, so
  // exactly one process wins, and a reader never sees a half-written holder.
  const draft = `${lockPath}.${process.pid}`;
  writeFileSync(draft, JSON.stringify(me));
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        linkSync(draft, lockPath);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
      }
      const holder = readHolder(lockPath);
      if (holder && isRunning(holder.pid)) throw inUse(dataDir, holder);
      // The holder ended without letting go (killed, the machine restarted, or a container whose
      // process 1 had the same pid as this one): the lock is stale.
      unlinkIfHeldBy(lockPath, holder);
    }
  } finally {
    unlinkSync(draft);
  }
  heldHere.add(lockPath);
  const onExit = (): void => release();
  process.once('exit', onExit);
  let released = false;
  function release(): void {
    if (released) return;
    released = true;
    heldHere.delete(lockPath);
    process.off('exit', onExit);
    unlinkIfHeldBy(lockPath, me);
  }
  return { release };
}

function inUse(dataDir: string, holder: Holder): EmbeddedDatabaseInUse {
  const who = holder.pid === process.pid ? 'this process' : `process ${holder.pid} (${holder.command})`;
  return new EmbeddedDatabaseInUse(
    `the embedded database in ${dataDir} is in use by ${who}; stop it first (one process at a time may open the embedded database; Postgres through DATABASE_URL takes many)`,
  );
}

function readHolder(lockPath: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<Holder>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, command: String(parsed.command ?? '') } : undefined;
  } catch {
    return undefined;
  }
}

/** Alive, and not this very process (whose own locks are in heldHere; a file naming it is stale). */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the lock file only if it still names this holder (another process may have taken it since). */
function unlinkIfHeldBy(lockPath: string, holder: Holder | undefined): void {
  const current = readHolder(lockPath);
  if (holder !== undefined && current?.pid !== holder.pid) return;
  try {
    unlinkSync(lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function describeThisProcess(): string {
  const args = process.argv.slice(1).map((arg) => (arg.startsWith('/') ? relative(process.cwd(), arg) || arg : arg));
  return ['node', ...args].join(' ');
}
