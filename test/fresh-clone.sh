#!/usr/bin/env bash
# A newcomer's first run, checked: clone this repository into a temporary folder, run the README's
# `npm start` there with nothing installed, and check that it ends with the API up, the sample
# loaded, the citation network complete (every opinion linked), and no warning or error in the log;
# then a SIGTERM to npm stops all of it. It starts cold, as a new machine does: no server of ours running
# for it (its Kafka, registry and ClickHouse get ports of their own, beside any stack already up) and empty
# data folders (the clone's own .data). Its servers are stopped and everything removed at the end.
# The sample is 2,000 opinions (LDS_SAMPLE_OPINIONS) rather than a user's 10,000: the same code
# runs, and `npm test` saves about three minutes of two shared cores.
#
#   bash test/fresh-clone.sh            (what `npm test` runs last)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
export LDS_SAMPLE_OPINIONS=${LDS_SAMPLE_OPINIONS:-2000}
export PORT=${FRESH_PORT:-18100} LDS_KAFKA_PORT=29092 LDS_KAFKA_CONTROLLER_PORT=29093 LDS_KAFKA_SASL_PORT=29094 LDS_REGISTRY_PORT=28081 \
  LDS_CLICKHOUSE_HTTP_PORT=28123 LDS_CLICKHOUSE_TCP_PORT=29000
unset LDS_DATA_DIR LDS_TOPIC_PREFIX CLICKHOUSE_DATABASE KAFKA_BROKERS SCHEMA_REGISTRY_URL CLICKHOUSE_URL
run=lds
clickhouse="http://127.0.0.1:$LDS_CLICKHOUSE_HTTP_PORT"
log="$work/start.log"
pid=""

cleanup() {
  [ -n "$pid" ] && kill -INT -- "-$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  # The clone's own servers (npm start leaves the infrastructure running, as it does for a user).
  [ -d "$work/lds/node_modules" ] && (cd "$work/lds" && npx tsx infra/cli.ts down >/dev/null 2>&1) || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "[fresh-clone] cloning into $work/lds"
git clone -q "$root" "$work/lds"
cd "$work/lds"

echo "[fresh-clone] npm start (installs what is missing, loads the sample) …"
started=$(date +%s)
# In a process group of its own, so that what is left of it can be found and stopped at the end.
# The log exists before the background job opens it: the first grep below may run before it does.
: >"$log"
setsid npm start >"$log" 2>&1 &
pid=$!
until grep -q 'API: http' "$log"; do
  if ! kill -0 "$pid" 2>/dev/null; then echo "[fresh-clone] npm start exited early:"; tail -40 "$log"; exit 1; fi
  if [ $(( $(date +%s) - started )) -gt 900 ]; then echo "[fresh-clone] not ready after 15 minutes:"; tail -40 "$log"; exit 1; fi
  sleep 2
done
echo "[fresh-clone] ready in $(( $(date +%s) - started )) s: $(grep -o 'ready: .*' "$log" | head -1 | sed 's/"}$//')"

fail=0
if grep -E '"level":(40|50|60)|\bWARN\b|\bERROR\b|npm ERR' "$log" | grep -v 'npm warn'; then echo "[fresh-clone] warnings or errors in the log (above)"; fail=1; fi
status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/api/rest/v4/courts/scotus/")
[ "$status" = 200 ] || { echo "[fresh-clone] /courts/scotus/ answered $status"; fail=1; }
opinions=$(curl -fsS "$clickhouse/" --data-binary "SELECT count() FROM \`$run\`.opinions FINAL")
linked=$(curl -fsS "$clickhouse/" --data-binary "SELECT count() FROM \`$run\`.citation_state FINAL")
edges=$(curl -fsS "$clickhouse/" --data-binary "SELECT count() FROM \`$run\`.opinions_cited FINAL")
echo "[fresh-clone] opinions $opinions, linked by the citation network $linked, edges $edges"
[ "$opinions" -ge "$LDS_SAMPLE_OPINIONS" ] && [ "$linked" = "$opinions" ] && [ "$edges" -gt 0 ] || { echo "[fresh-clone] the citation network is not complete"; fail=1; }

# Stopped as a supervisor stops it: SIGTERM to npm alone (a terminal's Ctrl-C, to the whole group, is
# test/unit/core/shutdown.test.ts's). npm passes it to its script, which must be the service itself.
kill -TERM "$pid"; wait "$pid" || true
grep -q 'stopping the API and processors' "$log" && grep -q 'table-sink.*stream stopped' "$log" || { echo "[fresh-clone] SIGTERM to npm did not stop it cleanly"; tail -20 "$log"; fail=1; }
for _ in $(seq 1 20); do pgrep -g "$pid" >/dev/null || break; sleep 0.5; done
if pgrep -g "$pid" >/dev/null; then echo "[fresh-clone] processes left running after npm stopped:"; ps -o pid,args -g "$pid"; fail=1; else pid=""; fi
[ $fail = 0 ] && echo "[fresh-clone] ok" || exit 1
