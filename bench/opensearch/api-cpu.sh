#!/usr/bin/env bash
# The scaled API's own CPU per call, for two or more builds taken in turn on one harness: each round starts one API
# process per build (bench/scale/serve-api.ts over DATA_DIR, control store PostgreSQL, index on the OpenSearch node),
# warms it with autocannon (10 connections, 3 s), then sends REQUESTS requests over 10 connections and reads the
# server's CPU (user + system, /proc/PID/stat) before and after them.
#
#   flock /tmp/newsindex-bench.lock nice -n 0 bash bench/opensearch/api-cpu.sh DATA_DIR ROUNDS TREE...
#
# DATA_DIR was ingested with the same NEWSINDEX_* settings (below, overridable from the environment), e.g.
#   NEWSINDEX_INDEX=opensearch NEWSINDEX_OPENSEARCH_URL=http://127.0.0.1:19200 NEWSINDEX_OPENSEARCH_PREFIX=apicpu \
#   NEWSINDEX_CONTROL_STORE=postgres NEWSINDEX_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
#   NEWSINDEX_DATABASE_SCHEMA=apicpu newsindex ingest --data-dir DATA_DIR FILE...
# Each TREE is a checkout of the project with node_modules; REQ_PATH (default a keyword /search) is the call timed.
# Prints one line per build and round: load average before it, req/s, p50, server CPU per request.
# SYSCALLS=1 instead counts the server's socket writes per request (strace -c on every thread during the timed
# requests; strace slows the process, so the CPU figures of such a run are not comparable and are not printed).
set -euo pipefail
DATA_DIR=$1
ROUNDS=$2
shift 2
export NEWSINDEX_INDEX=${NEWSINDEX_INDEX:-opensearch}
export NEWSINDEX_OPENSEARCH_URL=${NEWSINDEX_OPENSEARCH_URL:-http://127.0.0.1:19200}
export NEWSINDEX_OPENSEARCH_PREFIX=${NEWSINDEX_OPENSEARCH_PREFIX:-apicpu}
export NEWSINDEX_CONTROL_STORE=${NEWSINDEX_CONTROL_STORE:-postgres}
export NEWSINDEX_DATABASE_URL=${NEWSINDEX_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
export NEWSINDEX_DATABASE_SCHEMA=${NEWSINDEX_DATABASE_SCHEMA:-apicpu}
export NEWSINDEX_EMBED_IN_SERVER=off
REQ_PATH=${REQ_PATH:-/search?q=baltimore%20shooting}
REQUESTS=${REQUESTS:-3000}
DATA_DIR=$(realpath "$DATA_DIR")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

one() {
  local tree=$1 round=$2
  local autocannon="$tree/node_modules/.bin/autocannon"
  mkfifo "$WORK/in"
  (cd "$tree" && exec node --import tsx bench/scale/serve-api.ts "$DATA_DIR") <"$WORK/in" >"$WORK/out" &
  local pid=$!
  exec 3>"$WORK/in"
  for _ in $(seq 1 200); do [ -s "$WORK/out" ] && break; sleep 0.2; done
  local port key
  read -r port key < <(head -1 "$WORK/out" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);console.log(j.port,j.key)})')
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  "$autocannon" -c 10 -d 3 -H "Authorization: Bearer $key" "http://127.0.0.1:$port$REQ_PATH" >/dev/null 2>&1
  # Fields 14 and 15 of /proc/PID/stat: user and system time, in clock ticks.
  local cpu0 cpu1
  local tracer=""
  if [ "${SYSCALLS:-}" = 1 ]; then
    strace -f -c -e trace=write,writev,sendto,sendmsg -o "$WORK/strace" -p "$pid" 2>/dev/null &
    tracer=$!
    sleep 1
  fi
  cpu0=$(awk '{print $14+$15}' "/proc/$pid/stat")
  "$autocannon" -j -c 10 -a "$REQUESTS" -H "Authorization: Bearer $key" "http://127.0.0.1:$port$REQ_PATH" >"$WORK/ac.json" 2>/dev/null
  cpu1=$(awk '{print $14+$15}' "/proc/$pid/stat")
  if [ -n "$tracer" ]; then
    kill -INT "$tracer"
    wait "$tracer" || true
    awk -v n="$REQUESTS" -v r="$round" -v t="$tree" '$NF ~ /^(write|writev|sendto|sendmsg)$/ { printf "round %s %s: %s %.2f per request\n", r, t, $NF, $4 / n }' "$WORK/strace"
    kill -TERM "$pid"
    wait "$pid" || true
    exec 3>&-
    rm -f "$WORK/in" "$WORK/out" "$WORK/ac.json" "$WORK/strace"
    return
  fi
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const ms = (Number(process.argv[2]) * 1000) / Number(process.argv[3]);
    console.log(`round ${process.argv[4]} ${process.argv[5]} load ${process.argv[6]}: ${r.requests.total} requests, ${r.non2xx} non-2xx, ` +
      `${(r.requests.total / r.duration).toFixed(0)} req/s, p50 ${r.latency.p50} ms; server CPU ${(ms / r.requests.total).toFixed(3)} ms/request`);
  ' "$WORK/ac.json" $((cpu1 - cpu0)) "$(getconf CLK_TCK)" "$round" "$tree" "$load"
  kill -TERM "$pid"
  wait "$pid" || true
  exec 3>&-
  rm -f "$WORK/in" "$WORK/out" "$WORK/ac.json"
}

for round in $(seq 1 "$ROUNDS"); do
  for tree in "$@"; do one "$tree" "$round"; done
done
