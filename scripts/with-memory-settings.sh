#!/bin/sh
# Runs a command (the app) with the memory settings its photo work is measured with (npm run bench):
# jemalloc where it is installed (Debian's libjemalloc2), as sharp's documentation advises on glibc. It hands the
# pages of a finished photo back within a second (dirty_decay_ms) on its own thread, where glibc's malloc keeps
# them, fragmented, for good. Without it, glibc is held to two arenas and a fixed 128 KB mmap threshold.
# The app takes LD_PRELOAD out of its environment once started, so its PostgreSQL is not run under jemalloc.
if [ -z "${LD_PRELOAD:-}" ]; then
  for library in /usr/lib/*-linux-gnu/libjemalloc.so.2 /usr/lib64/libjemalloc.so.2 /usr/lib/libjemalloc.so.2; do
    if [ -e "$library" ]; then
      export LD_PRELOAD="$library"
      break
    fi
  done
fi
export MALLOC_CONF="${MALLOC_CONF:-background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0}"
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
exec "$@"
