import type { ForeignCpu } from './children';
import type { LoadResult } from './load';
import type { ChildInfo, LoopDelay, MemoryBreakdown } from './protocol';
import type { DatabaseMode, Machine, Settings } from './settings';

/** One measured run of one process. */
export interface RunSample {
  readonly load: LoadResult;
  /** Peak RSS of the process during the run, bytes. */
  readonly rssPeak: number;
  /** What the rest of the machine used meanwhile. */
  readonly foreignCpu: ForeignCpu;
  /** CPU time the process spent per answered request (every thread: scrypt's pool included), ms. */
  readonly cpuPerRequest: number;
}

/** A throughput scenario: baseline and service alternated, B S B S ... */
export interface ThroughputResult {
  readonly id: 'me-bearer' | 'me-api-key' | 'invites';
  readonly title: string;
  /** What the baseline was sent, for the report (it serves only /me). */
  readonly baselineNote: string;
  readonly baseline: RunSample[];
  readonly service: RunSample[];
}

/** Logins or sign-ups per second, with the /healthz probe beside them. */
export interface OpsRun extends RunSample {
  readonly probe: LoadResult;
  readonly loopDelay: LoopDelay;
}

export interface OpsResult {
  readonly id: 'login' | 'signup';
  readonly title: string;
  readonly runs: OpsRun[];
}

/** Sequential single requests, ms each. */
export interface SequentialTimings {
  readonly samples: number[];
  readonly statuses: Record<string, number>;
}

export interface FirstUseResult {
  /** GET /me with a key never sent before (the lookup goes to the database unless something else knows it). */
  readonly fresh: SequentialTimings;
  /** The same request with a key already used many times, interleaved with the above. */
  readonly seen: SequentialTimings;
  /** The same request with the bearer token, interleaved too. */
  readonly bearer: SequentialTimings;
}

export interface LoginTimingResult {
  /** Known e-mail, wrong password. */
  readonly known: SequentialTimings;
  /** E-mail nobody registered, same password. */
  readonly unknown: SequentialTimings;
}

export interface ModeResult {
  readonly mode: DatabaseMode;
  readonly database: string;
  readonly databaseVersion: string | undefined;
  readonly machine: Machine;
  readonly settings: Settings;
  readonly command: string;
  readonly startedAt: Date;
  readonly finishedAt: Date;
  readonly loadBefore: readonly number[];
  readonly loadAfter: readonly number[];
  readonly serviceInfo: ChildInfo;
  /** How the baseline was started (ChildInfo.launch). */
  readonly baselineLaunch: string;
  readonly seedSeconds: number;
  /** RSS after seeding, before any load, bytes. */
  readonly idleRss: { readonly service: number; readonly baseline: number };
  readonly throughput: ThroughputResult[];
  readonly firstUse: FirstUseResult;
  readonly ops: OpsResult[];
  readonly loginTiming: LoginTimingResult;
  /** Requests the service answered 500, over the whole mode. */
  readonly serverErrors: number;
  /** process.memoryUsage() of each server after the throughput scenarios, and of the service after login and sign-up. */
  readonly memory: { readonly baseline: MemoryBreakdown; readonly serviceAfterThroughput: MemoryBreakdown; readonly serviceAfterOps: MemoryBreakdown };
  /** The commit measured, and whether src had uncommitted changes (the working tree is what runs). */
  readonly source: { readonly commit: string; readonly dirtySrcFiles: number };
}
