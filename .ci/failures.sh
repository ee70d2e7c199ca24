#!/usr/bin/env bash
# Prints every failed test point of the last tap run (from .tap/test-results), with the file, the
# test's name and the first lines of its diagnostics, so the end of a CI log says what failed.
# Given test files (test/…/x.test.ts, or dist/test/…/x.test.js when compiled), only theirs.
set -uo pipefail
cd "$(dirname "$0")/.."
[ -d .tap/test-results ] || exit 0
if [ $# -gt 0 ]; then files=$(printf '.tap/test-results/%s.tap\n' "$@"); else files=$(find .tap/test-results -name '*.tap' | sort); fi
while IFS= read -r f; do
  [ -f "$f" ] || continue
  grep -q '^\s*not ok ' "$f" || continue
  echo "== ${f#.tap/test-results/}"
  # A failed point, its YAML block's first 25 lines (message, at, stack), and the point's parents.
  awk '/^[[:space:]]*not ok / { show = 25; print; next } show > 0 { print; if ($0 ~ /^[[:space:]]*\.\.\.$/) show = 0; else show-- }' "$f" | head -120
done <<<"$files"
