#!/usr/bin/env bash
# Prints the length of each golden link's fragment (tests/golden/links.json: the reference
# scenarios and questions) against the 200-character design target. Not a test: it prints.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
node -e '
const links = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).links;
let max = 0;
for (const l of links) {
  const n = l.link.length - 1;  // without "#"
  max = Math.max(max, n);
  console.log(String(n).padStart(4) + "  " + l.name);
}
const sorted = links.map(l => l.link.length - 1).sort((a, b) => a - b);
console.log(`${links.length} links: median ${sorted[Math.floor(sorted.length / 2)]}, longest ${max} characters (target <= 200)`);
' "$ROOT/tests/golden/links.json"
