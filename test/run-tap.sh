#!/usr/bin/env bash
# Every test file under tap (or the files given): the TypeScript sources under tsx, as package.json's
# "tap" section says, or the compiled tree when TAP_RCFILE=test/taprc-compiled.yml (what `npm test` runs). When one to three files fail, each is run once more on its own and the
# run passes only if all of them pass then: a file that failed once and passed alone is named as
# flaky at the end of the log (with its first failure, from .ci/failures.sh), never hidden. More
# failed files, or a second failure, fail the run. Failures in the fault suite or the fresh-clone
# check are never run again (test/isolated-checks.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
# The first run's failed points, kept for .ci/run to show at the end of its log.
first=.tap/first-run-failures.txt
rm -f "$first"
npx tap "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" = 0 ] && exit 0
failed=$(sed -nE 's/^not ok [0-9]+ - ((dist\/)?test\/[^ ]+\.test\.[jt]s).*/\1/p' "$log" | sort -u)
count=$(wc -w <<<"$failed")
# shellcheck disable=SC2086
[ "$count" != 0 ] && .ci/failures.sh $failed > "$first"
if [ "$count" = 0 ] || [ "$count" -gt 3 ]; then
  echo "[run-tap] $count test file(s) failed: not run again"
  exit "$status"
fi
echo "[run-tap] failed on the first run, run again alone: $(tr '\n' ' ' <<<"$failed")"
# shellcheck disable=SC2086
npx tap $failed 2>&1 | sed -u 's/^/[run-tap again] /'
again=${PIPESTATUS[0]}
cat "$first"
if [ "$again" = 0 ]; then
  echo "[run-tap] FLAKY: failed once, then passed alone: $(tr '\n' ' ' <<<"$failed")(first failure above)"
else
  echo "[run-tap] failed again alone: $(tr '\n' ' ' <<<"$failed")"
fi
exit "$again"
