#!/usr/bin/env bash
# Prints the web app's first-load size (raw and gzip -9) per file and in total, the embedded
# font subsets, and the median time to the first frame in headless Chromium (5 runs).
# Run after ./llmplan build (and ./llmplan deps --test for the browser). Not a test: it prints.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SITE="$ROOT/build/web/site"
[ -f "$SITE/llmplan.wasm" ] || { echo "build the site first: ./llmplan build" >&2; exit 1; }

row() { printf '%-28s %10s %10s\n' "$1" "$2" "$3"; }
gz() { gzip -9c "$1" | wc -c; }

echo "First load (every file the page fetches):"
row file raw gzip
total=0
total_gz=0
for f in index.html style.css app.js favicon.svg llmplan.js llmplan.wasm; do
  raw=$(wc -c <"$SITE/$f")
  z=$(gz "$SITE/$f")
  row "$f" "$raw" "$z"
  total=$((total + raw))
  total_gz=$((total_gz + z))
done
row "TOTAL" "$total" "$total_gz"
echo
echo "Fonts (subset at build time, embedded inside llmplan.wasm, so already counted above):"
for f in "$ROOT"/build/web/web/fonts/*.ttf; do row "$(basename "$f")" "$(wc -c <"$f")" "$(gz "$f")"; done
echo
node "$ROOT/bench/first-frame.mjs" 5
