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
# keeps its own 8 MiB scrypt buffer: libuv's default of 4 on 2 CPUs is slower and bigger.
pool=${UV_THREADPOOL_SIZE:-4}
case $pool in '' | *[!0-9]*) pool=4 ;; esac
[ "$pool" -gt "$cores" ] && pool=$cores
[ "$pool" -lt 1 ] && pool=1
export UV_THREADPOOL_SIZE="$pool"

# glibc: allocations of 128 KiB and more get their own mapping and go back to the system on free.
# Without this, glibc raises its threshold after the first scrypt buffer (8 MiB) is freed, and later
# buffers stay resident in each pool thread's malloc arena. Arenas are capped for the same reason.
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"

# V8's garbage collector, tuned for a service whose requests wait on a database (docs/operations.md,
# "Memory"): with allocation-site pretenuring, V8 sees a request's objects (a query's rows, the
# query builder's nodes) survive a scavenge while the query is in flight, and starts allocating
# them straight into the old generation, where they die; the old generation then grows to about
# four times what is live before it is collected. Off, and with the old generation let grow by 50%
# rather than up to 300% between collections: a lower peak RSS and less CPU per request under GET
# /invites (docs/benchmarks.md). PORTCULLIS_V8_GC_FLAGS replaces the pair (empty: V8's own behaviour).
gc_flags=${PORTCULLIS_V8_GC_FLAGS---no-allocation-site-pretenuring --heap-growing-percent=50}
node_bin=${NODE:-node}
# shellcheck disable=SC2086 # the flags are words
if [ -n "$gc_flags" ] && ! "$node_bin" $gc_flags -e 0 >/dev/null 2>&1; then
  echo "start.sh: $node_bin does not take the V8 flags '$gc_flags'; starting with V8's defaults" >&2
  gc_flags=
fi

# The young generation is left at Node's default (semi-spaces grow to 16 MiB under load): smaller
# ones lower RSS further but cost CPU on 2 CPUs (docs/operations.md). PORTCULLIS_SEMI_SPACE_MB sets it.
[ $# -eq 0 ] && set -- dist/bootstrap/main.js
if [ -n "${PORTCULLIS_SEMI_SPACE_MB:-}" ]; then
  set -- --max-semi-space-size="$PORTCULLIS_SEMI_SPACE_MB" "$@"
fi
# shellcheck disable=SC2086
exec "$node_bin" $gc_flags "$@"
