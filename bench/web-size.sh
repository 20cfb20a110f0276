#!/usr/bin/env bash
# Prints the first-load size (raw and gzip -9) per file and in total of the app, the embed page,
# the API module, a documentation page and the single-file build, the embedded font subsets, and the median time to the first frame in headless Chromium (5 runs).
# Run after ./llmplan build (and ./llmplan deps --test for the browser). Not a test: it prints.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SITE="$ROOT/build/web/site"
[ -f "$SITE/llmplan.wasm" ] || { echo "build the site first: ./llmplan build" >&2; exit 1; }

row() { printf '%-28s %10s %10s\n' "$1" "$2" "$3"; }
gz() { gzip -9c "$1" | wc -c; }

# table TITLE FILE...: one row per file and the total, raw and gzip -9.
table() {
  local title="$1" f raw z total=0 total_gz=0
  shift
  echo "$title"
  row file raw gzip
  for f in "$@"; do
    raw=$(wc -c <"$SITE/$f")
    z=$(gz "$SITE/$f")
    row "$f" "$raw" "$z"
    total=$((total + raw))
    total_gz=$((total_gz + z))
  done
  row "TOTAL" "$total" "$total_gz"
  echo
}

table "App, first load (every file the page fetches):" \
  index.html style.css api.js card.js app.js favicon.svg manifest.webmanifest llmplan.js llmplan.wasm
table "Embed page, first load (embed.html#...; limit 1 MB):" \
  embed.html embed.css api.js card.js embed.js favicon.svg llmplan_api.js llmplan_api.wasm
table "API module alone (core + Embind, no ImGui/GL):" llmplan_api.js llmplan_api.wasm
table "A documentation page with live figures (docs/embedding.html):" \
  docs/embedding.html docs/docs.css api.js docs/docs.js favicon.svg manifest.webmanifest llmplan_api.js llmplan_api.wasm
table "Single-file build (opens from file://):" llmplan-single.html
echo "Fonts (subset at build time, embedded inside llmplan.wasm, so already counted above):"
for f in "$ROOT"/build/web/web/fonts/*.ttf; do row "$(basename "$f")" "$(wc -c <"$f")" "$(gz "$f")"; done
echo
node "$ROOT/bench/first-frame.mjs" 5
