/**
 * The bench-only channel between run.ts and the two server processes: Node's IPC (the fourth stdio
 * slot), never an HTTP route. A child prints `READY <port>` on stdout once it listens, then answers
 * these messages. Nothing here is part of the service.
 */

/** Sent by the parent. */
export type ParentMessage =
  | { readonly type: 'eld-reset' }
  | { readonly type: 'eld-read'; readonly id: number }
  | { readonly type: 'info'; readonly id: number }
  | { readonly type: 'shutdown' };

/** Event-loop delay since the last reset, in milliseconds: how late a 10 ms timer fired (perf_hooks.monitorEventLoopDelay, less its interval). */
export interface LoopDelay {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

export interface ChildInfo {
  /** Where the data lives, as the service's start-up line says it. */
  readonly location: string;
  /** The stored form's header of a hash made by the hasher the service runs with, e.g. `scrypt$8192$8$10`. */
  readonly hashScheme: string;
  /** libuv's thread pool size: scrypt runs there. */
  readonly threadPoolSize: number;
  /** How the process was started: node options and the allocator settings it runs with. */
  readonly launch: string;
  /** Requests the service answered with 500 (its error log), since start. */
  readonly serverErrors: number;
  /** process.memoryUsage() when asked, bytes. */
  readonly memory: MemoryBreakdown;
}

export interface MemoryBreakdown {
  readonly rss: number;
  readonly heapTotal: number;
  readonly heapUsed: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

/** Sent by a child. */
export type ChildMessage =
  | { readonly type: 'eld'; readonly id: number; readonly delay: LoopDelay }
  | { readonly type: 'info'; readonly id: number; readonly info: ChildInfo };

export const READY_PREFIX = 'READY ';

export const AUTH_BASE = '/api/v1/auth';

/** The service's signing secret in the bench, so that the bench can sign tokens as the service does. */
export const BENCH_JWT_SECRET = 'portcullis-bench-secret-0123456789abcdef';
