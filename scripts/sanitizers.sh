#!/usr/bin/env bash
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
# gst-cuda-vision: builds the CPU reference backend with AddressSanitizer
# and UndefinedBehaviorSanitizer and runs the C test suites under them.
#
# GStreamer's plugin scanner is not sanitized and cannot load a sanitized
# plugin, so plugins are scanned in the test's own process
# (GST_REGISTRY_FORK=no) into registries that this build makes afresh.
# test_huge_allocation_fails_cleanly asks for more than the machine has,
# which ASan refuses unless told to return NULL. The Python suite is left
# out: the interpreter would need libasan preloaded.
# Usage: bash scripts/sanitizers.sh [build folder]   (default build-asan)
set -euo pipefail
cd "$(dirname "$0")/.."

build="${1:-build-asan}"
rm -rf "$build"
meson setup "$build" -Dcuda=disabled -Db_sanitize=address,undefined \
  -Db_lundef=false -Dbuildtype=debug
meson compile -C "$build"
export GST_REGISTRY_FORK=no
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
asan=allocator_may_return_null=1:abort_on_error=1
# The tools free what they allocate, so their leaks are checked: full
# stacks, less the allocations of libraries' constructors (GLib's quarks).
ASAN_OPTIONS=$asan:detect_leaks=1:fast_unwind_on_malloc=0 \
  LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0" \
  meson test -C "$build" --suite tools --print-errorlogs --num-processes 2
# a refusal that leaks still exits non-zero, as its test expects: the
# reports are looked for
if grep -q "ERROR: LeakSanitizer" "$build/meson-logs/testlog.txt"; then
  grep -B2 -A20 "ERROR: LeakSanitizer" "$build/meson-logs/testlog.txt" >&2
  echo "sanitizers: a tool leaks (above)" >&2
  exit 1
fi
# GStreamer keeps allocations for the life of the process, which the
# element tests' forks leave behind; their leaks are valgrind's (the test
# command's valgrind setup), ASan checks every access.
ASAN_OPTIONS=$asan:detect_leaks=0 \
  meson test -C "$build" --suite cpu --no-suite tools --no-suite python \
  --no-suite bench --print-errorlogs --num-processes 2 --timeout-multiplier 3
