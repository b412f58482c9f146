#!/bin/sh
# How the service is started in production (`npm start`, `make run`; the benchmark starts the
# service the same way). The settings below must be in place before node starts: glibc reads its
# tunables when the process begins, and libuv sizes its thread pool on first use. A value already
# set in the environment wins, except that the thread pool never exceeds the CPUs. Then `exec`, so
# the process is node itself (signals, exit code and pid are the service's). docs/operations.md.
#
#   scripts/start.sh                          dist/bootstrap/main.js
#   scripts/start.sh [node options] entry.js  another entry (the benchmark's server, --cpu-prof, ...)
set -eu

cores=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

# scrypt runs on libuv's pool. Threads beyond the CPUs only wait for one, and each hashing thread
# keeps its own 16 MiB scrypt buffer: libuv's default of 4 on 2 CPUs is slower and bigger.
pool=${UV_THREADPOOL_SIZE:-4}
case $pool in '' | *[!0-9]*) pool=4 ;; esac
[ "$pool" -gt "$cores" ] && pool=$cores
[ "$pool" -lt 1 ] && pool=1
export UV_THREADPOOL_SIZE="$pool"

# glibc: allocations of 128 KiB and more get their own mapping and go back to the system on free.
# Without this, glibc raises its threshold after the first 16 MiB scrypt buffer is freed, and later
# buffers stay resident in each pool thread's malloc arena. Arenas are capped for the same reason.
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"

# V8's young generation is left at Node's default (semi-spaces grow to 16 MiB under load): smaller
# ones saved 10-30 MB of RSS but cost 30-45% more CPU per GET /invites on 2 CPUs, as more objects
# survive into the old generation (docs/operations.md). PORTCULLIS_SEMI_SPACE_MB trades it back.
[ $# -eq 0 ] && set -- dist/bootstrap/main.js
if [ -n "${PORTCULLIS_SEMI_SPACE_MB:-}" ]; then
  set -- --max-semi-space-size="$PORTCULLIS_SEMI_SPACE_MB" "$@"
fi
exec "${NODE:-node}" "$@"
