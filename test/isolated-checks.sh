#!/usr/bin/env bash
# The last two steps of `npm test`, side by side: the fault suite (--small) and the newcomer's first
# run (test/fresh-clone.sh). Each brings up infrastructure of its own, on ports and data folders apart
# from the tests' and from each other's (faults: .data/faults, 19092, 18081, 18123, API 18000;
# fresh clone: a temporary clone, 29092, 28081, 28123, API 18100), and each stops only what it
# started. The fault suite runs compiled (`npm run build`, as `npm test` does first); its lines are
# prefixed with [faults]. Fails if either fails.
set -uo pipefail
cd "$(dirname "$0")/.."
node dist/test/faults/run.js --small > >(sed -u 's/^/[faults] /') 2>&1 &
faults=$!
bash test/fresh-clone.sh
fresh=$?
wait "$faults"
status=$?
echo "[isolated-checks] fault suite: $([ $status = 0 ] && echo ok || echo "FAILED ($status)"); fresh clone: $([ $fresh = 0 ] && echo ok || echo "FAILED ($fresh)")"
[ "$status" = 0 ] && [ "$fresh" = 0 ]
