#!/usr/bin/env bash
# Runs every test suite of an already-built tree and prints one closing line, "N passed, N failed",
# counting native doctest cases, CLI contract tests, validation and fuzzing (ctest), the same
# again under AddressSanitizer/UBSan, the same core tests compiled to
# WebAssembly under Node, and the browser end-to-end tests. Exits non-zero on any failure.
# ./llmplan test installs, builds and then runs this.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
LOGS="$ROOT/build/test-logs"
mkdir -p "$LOGS"
passed=0
failed=0

section() { printf '\n\033[1;34m== %s\033[0m\n' "$*"; }

# Adds a suite's counts; a suite that crashed before reporting counts as one failure.
add_counts() {
  local name="$1" p="$2" f="$3" rc="$4"
  if [ -z "$p" ] || [ -z "$f" ]; then
    echo "!! $name did not report its counts (exit $rc): counted as 1 failure"
    failed=$((failed + 1))
    return
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  echo "-- $name: $p passed, $f failed"
  passed=$((passed + p))
  failed=$((failed + f))
}

section "native: doctest cases and CLI contract tests (ctest)"
ctest --test-dir build/native --output-on-failure -j2 2>&1 | tee "$LOGS/native.log"
rc=${PIPESTATUS[0]}
line=$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$LOGS/native.log" | tail -1)
total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
nfail=$(sed -E 's/.* ([0-9]+) tests? failed.*/\1/' <<<"$line")
[ -n "$line" ] && add_counts native $((total - nfail)) "$nfail" "$rc" || add_counts native "" "" "$rc"

section "sanitizers: the core tests, CLI tests and libFuzzer targets under ASan + UBSan (ctest)"
# The validation table is the same code path as natively and slow under ASan: it runs natively.
ctest --test-dir build/asan --output-on-failure -j2 -E '^validation\.' 2>&1 | tee "$LOGS/asan.log"
rc=${PIPESTATUS[0]}
line=$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$LOGS/asan.log" | tail -1)
total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
nfail=$(sed -E 's/.* ([0-9]+) tests? failed.*/\1/' <<<"$line")
[ -n "$line" ] && add_counts asan $((total - nfail)) "$nfail" "$rc" || add_counts asan "" "" "$rc"

section "wasm: the same core tests compiled with Emscripten, run by Node"
# --no-experimental-fetch: Node 20's fetch() cannot load the 3.1.6 loader's file paths.
node --no-experimental-fetch build/web/tests/llmplan_tests.js --no-colors 2>&1 | tee "$LOGS/wasm.log"
rc=${PIPESTATUS[0]}
line=$(grep -E '^\[doctest\] test cases:' "$LOGS/wasm.log" | tail -1)
add_counts wasm "$(sed -E 's/.*\| *([0-9]+) passed.*/\1/' <<<"$line" | grep -E '^[0-9]+$')" \
  "$(sed -E 's/.*\| *([0-9]+) failed.*/\1/' <<<"$line" | grep -E '^[0-9]+$')" "$rc"

section "browser: end-to-end tests in headless Chromium (playwright-core)"
(cd tests/e2e && node --test --test-concurrency=1 --test-reporter=spec) 2>&1 | tee "$LOGS/e2e.log"
rc=${PIPESTATUS[0]}
p=$(grep -E '^ℹ pass [0-9]+' "$LOGS/e2e.log" | tail -1 | grep -oE '[0-9]+')
f=$(grep -E '^ℹ fail [0-9]+' "$LOGS/e2e.log" | tail -1 | grep -oE '[0-9]+')
add_counts browser "$p" "$f" "$rc"
echo "-- screenshots: $ROOT/build/web/e2e/"

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
