#!/usr/bin/env bash
# The scaled shape as a cluster on one machine's loopback (docs/operators.md, "A local cluster"):
# three OpenSearch 3.5 nodes forming one cluster, PostgreSQL, three API replicas (`newsindex serve --follow`, one of
# which follows the feed by its lease) and HAProxy on 127.0.0.1:8088 checking each replica's GET /ready.
#
#   deploy/local/cluster.sh up                 start everything; prints `KEY <api key>` of an archive-plan tenant
#   deploy/local/cluster.sh ingest FILE...     ingest GKG files through the cluster (one process, then embed)
#   deploy/local/cluster.sh pids               one `api <pid>`, `opensearch <pid>`, `postgres <pid>`, `haproxy <pid>` line per process
#   deploy/local/cluster.sh status             cluster health, each replica's readiness, the balancer's view
#   deploy/local/cluster.sh start api|opensearch N   (re)start one replica or node after a fault
#   deploy/local/cluster.sh key NAME           another archive-plan tenant NAME: prints `KEY <api key>`
#   deploy/local/cluster.sh down               stop everything it started (data stays in the cluster directory)
#
# Settings (environment): NEWSINDEX_CLUSTER_DIR (/var/tmp/newsindex-cluster; must be reachable by user `os`),
# NEWSINDEX_CLUSTER_PORT (8088; the balancer's statistics on the next port), NEWSINDEX_CLUSTER_DATABASE_URL (unset: a PostgreSQL of its own on 127.0.0.1:15432),
# NEWSINDEX_CLUSTER_FEED (the feed replicas follow; unset: GDELT's; off: none), NEWSINDEX_CLUSTER_EMBED (on|off,
# embedding after ingest), NEWSINDEX_CLUSTER_NOW (a replay clock, YYYYMMDDHHMMSS), NEWSINDEX_OPENSEARCH_SHARDS (3),
# NEWSINDEX_FOLLOW_POLL_SECONDS (60), HEAP (384m).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BASE=${NEWSINDEX_CLUSTER_DIR:-/var/tmp/newsindex-cluster}
LB_PORT=${NEWSINDEX_CLUSTER_PORT:-8088}
# The balancer's own statistics (CSV at /stats;csv: per replica, calls retried and redispatched), on loopback.
STATS_PORT=$((LB_PORT + 1))
HEAP=${HEAP:-384m}
NODES=(1 2 3)
# Away from a single node's 9200/19200 and the test node's 19300: several clusters may share a machine.
os_http() { echo $((19240 + $1)); }
os_transport() { echo $((19340 + $1)); }
api_port() { echo $((18090 + $1)); }
ops_port() { echo $((18190 + $1)); }
OWN_PG_PORT=15432
SCHEMA=newsindex_cluster
PREFIX=cluster

log() { echo "cluster: $*" >&2; }
pid_alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }
read_pid() { [ -f "$1" ] && cat "$1" || true; }

database_url() {
  if [ -n "${NEWSINDEX_CLUSTER_DATABASE_URL:-}" ]; then echo "$NEWSINDEX_CLUSTER_DATABASE_URL"; else echo "postgres://postgres@127.0.0.1:$OWN_PG_PORT/postgres"; fi
}
opensearch_urls() { local u=(); for i in "${NODES[@]}"; do u+=("http://127.0.0.1:$(os_http "$i")"); done; (IFS=,; echo "${u[*]}"); }

# The newsindex command: the checkout's sources when run from one, else the built package.
newsindex() {
  if [ -f "$ROOT/src/cli/main.ts" ] && [ -d "$ROOT/node_modules/tsx" ]; then
    (cd "$ROOT" && node --import tsx src/cli/main.ts "$@")
  else
    node "$ROOT/dist/cli/main.js" "$@"
  fi
}

# What every newsindex process of the cluster shares.
cluster_env() {
  export NEWSINDEX_INDEX=opensearch
  NEWSINDEX_OPENSEARCH_URL=$(opensearch_urls)
  export NEWSINDEX_OPENSEARCH_URL
  export NEWSINDEX_OPENSEARCH_PREFIX=$PREFIX
  export NEWSINDEX_OPENSEARCH_SHARDS=${NEWSINDEX_OPENSEARCH_SHARDS:-3}
  export NEWSINDEX_OPENSEARCH_REPLICAS=1
  export NEWSINDEX_CONTROL_STORE=postgres
  NEWSINDEX_DATABASE_URL=$(database_url)
  export NEWSINDEX_DATABASE_URL
  export NEWSINDEX_DATABASE_SCHEMA=$SCHEMA
  NEWSINDEX_ADMIN_TOKEN=$(cat "$BASE/admin-token")
  export NEWSINDEX_ADMIN_TOKEN
}

# --- OpenSearch -------------------------------------------------------------------------------------------------

start_opensearch() {
  local i=$1 dir="$BASE/opensearch/n$1" home
  home=$(DIST="$BASE/dist" bash "$ROOT/deploy/opensearch/assemble.sh")
  if pid_alive "$(read_pid "$dir/os.pid")"; then log "opensearch n$i already runs"; return; fi
  mkdir -p "$dir/data" "$dir/logs" "$BASE/snapshots"
  chown -R os:os "$BASE/opensearch" "$BASE/snapshots"
  local seeds=() first=()
  for j in "${NODES[@]}"; do seeds+=("127.0.0.1:$(os_transport "$j")"); done
  # Only the first start of an empty cluster bootstraps it; a node that has joined once finds the others itself.
  [ -d "$dir/data/nodes" ] || [ -n "$(ls -A "$dir/data" 2>/dev/null)" ] || first=(-Ecluster.initial_cluster_manager_nodes=n1,n2,n3)
  runuser -u os -- env OPENSEARCH_JAVA_HOME="$(bash "$ROOT/deploy/opensearch/java-home.sh")" \
    OPENSEARCH_JAVA_OPTS="-Xms$HEAP -Xmx$HEAP" \
    "$home/bin/opensearch" -d -p "$dir/os.pid" \
    -Ecluster.name=newsindex-local -Enode.name="n$i" -Enetwork.host=127.0.0.1 \
    -Ehttp.port="$(os_http "$i")" -Etransport.port="$(os_transport "$i")" \
    -Ediscovery.seed_hosts="$(IFS=,; echo "${seeds[*]}")" "${first[@]}" \
    -Epath.data="$dir/data" -Epath.logs="$dir/logs" -Epath.repo="$BASE/snapshots" \
    </dev/null >"$dir/console.log" 2>&1
  log "opensearch n$i starting on 127.0.0.1:$(os_http "$i")"
}

wait_opensearch() {
  local url="http://127.0.0.1:$(os_http "${1:-1}")"
  for _ in $(seq 1 180); do
    curl -s "$url/_cluster/health" | grep -q '"status":"\(green\|yellow\)"' && return 0
    sleep 1
  done
  log "OpenSearch did not form a cluster (see $BASE/opensearch/n*/console.log)"
  return 1
}

# --- PostgreSQL (a server of its own unless NEWSINDEX_CLUSTER_DATABASE_URL names one) ------------------------------

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

start_postgres() {
  [ -n "${NEWSINDEX_CLUSTER_DATABASE_URL:-}" ] && return 0
  local dir="$BASE/postgres" bin
  bin=$(pg_bin)
  [ -n "$bin" ] || { log "no PostgreSQL server under /usr/lib/postgresql; set NEWSINDEX_CLUSTER_DATABASE_URL"; return 1; }
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    mkdir -p "$dir"
    chown os:os "$dir"
    runuser -u os -- "$bin/initdb" -D "$dir/data" -U postgres --auth=trust >"$dir/initdb.log" 2>&1
  fi
  if runuser -u os -- "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then return 0; fi
  runuser -u os -- "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o "-p $OWN_PG_PORT -k $dir -c listen_addresses=127.0.0.1" start >/dev/null
  log "postgres on 127.0.0.1:$OWN_PG_PORT"
}

stop_postgres() {
  [ -n "${NEWSINDEX_CLUSTER_DATABASE_URL:-}" ] && return 0
  local dir="$BASE/postgres"
  [ -f "$dir/data/PG_VERSION" ] || return 0
  runuser -u os -- "$(pg_bin)/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
}

# --- API replicas -----------------------------------------------------------------------------------------------

start_api() {
  local i=$1 dir="$BASE/api/r$1" feed=()
  if pid_alive "$(read_pid "$dir/pid")"; then log "api r$i already runs"; return; fi
  mkdir -p "$dir"
  case "${NEWSINDEX_CLUSTER_FEED:-}" in
    off) ;;
    "") feed=(--follow) ;;
    *) feed=(--follow "$NEWSINDEX_CLUSTER_FEED") ;;
  esac
  # A replay clock (`serve --now`): the replicas behave as of that UTC instant, e.g. just after a sample's files.
  [ -z "${NEWSINDEX_CLUSTER_NOW:-}" ] || feed+=(--now "$(replay_now)")
  (
    cluster_env
    # Embedding runs after ingest (`ingest` below), not on every replica.
    export NEWSINDEX_EMBED_IN_SERVER=off NEWSINDEX_CONSOLE_PORT
    NEWSINDEX_CONSOLE_PORT=$(ops_port "$i")
    export LOG_LEVEL=${LOG_LEVEL:-info}
    cd "$ROOT"
    # A session of its own: the replica outlives the shell that started it, and a signal to that shell.
    if [ -f src/cli/main.ts ] && [ -d node_modules/tsx ]; then
      exec setsid node --import tsx src/cli/main.ts serve "${feed[@]}" --data-dir "$dir/data" --port "$(api_port "$i")" \
        </dev/null >>"$dir/serve.log" 2>&1
    else
      exec setsid node dist/cli/main.js serve "${feed[@]}" --data-dir "$dir/data" --port "$(api_port "$i")" \
        </dev/null >>"$dir/serve.log" 2>&1
    fi
  ) &
  echo $! >"$dir/pid"
  log "api r$i starting on 127.0.0.1:$(api_port "$i") (ready: 127.0.0.1:$(ops_port "$i")/ready)"
}

# The replay clock runs from the instant the replicas were started together (`up`), so a replica started again
# later reads the same time as the others: watch leases and due times are compared across replicas.
replay_now() {
  local anchor="$BASE/api/replay-clock" start at
  if [ ! -f "$anchor" ] || [ "$(cut -d' ' -f1 "$anchor")" != "$NEWSINDEX_CLUSTER_NOW" ]; then
    echo "$NEWSINDEX_CLUSTER_NOW $(date -u +%s)" >"$anchor"
  fi
  read -r start at <"$anchor"
  date -u -d "@$(($(date -u -d "${start:0:8} ${start:8:2}:${start:10:2}:${start:12:2}" +%s) + $(date -u +%s) - at))" +%Y%m%d%H%M%S
}

wait_ready() {
  local i=$1
  for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$(ops_port "$i")/ready" >/dev/null && return 0
    pid_alive "$(read_pid "$BASE/api/r$i/pid")" || { log "api r$i exited (see $BASE/api/r$i/serve.log)"; return 1; }
    sleep 1
  done
  log "api r$i is not ready (see $BASE/api/r$i/serve.log)"
  return 1
}

# --- HAProxy ----------------------------------------------------------------------------------------------------

start_haproxy() {
  command -v haproxy >/dev/null 2>&1 || {
    log "installing haproxy from Debian's packages"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
  }
  if pid_alive "$(read_pid "$BASE/haproxy.pid")"; then return; fi
  # When no replica can answer (all unready, or a call the balancer gave up on), the client still gets the API's
  # contract: 503 upstream_unavailable with its JSON body, not the balancer's own page.
  local body='{"error":"Upstream unavailable","code":"upstream_unavailable","detail":"No API replica could answer the call. Nothing was charged; this is not a statement about the index. Retry with backoff."}'
  printf 'HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json; charset=utf-8\r\nretry-after: 5\r\ncache-control: no-store\r\ncontent-length: %d\r\nconnection: close\r\n\r\n%s' \
    "${#body}" "$body" >"$BASE/upstream-unavailable.http"
  {
    cat <<EOF
global
  pidfile $BASE/haproxy.pid
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  timeout http-keep-alive 10s
  # A replica refusing or dropping a call (it died, or is closing) gets it retried on another one; only for GET
  # and HEAD past the connection (see disable-l7-retry below), since a POST may have run already.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout
  option httpchk GET /ready
  http-check expect status 200
  # A replica is taken out after 3 failed checks 2 s apart (each may take 6 s: a loaded replica is slow, not gone).
  timeout check 6s
  default-server inter 2s fall 3 rise 2
  errorfile 502 $BASE/upstream-unavailable.http
  errorfile 503 $BASE/upstream-unavailable.http
  errorfile 504 $BASE/upstream-unavailable.http

frontend stats
  bind 127.0.0.1:$STATS_PORT
  stats enable
  stats uri /stats

frontend api
  bind 127.0.0.1:$LB_PORT
  http-request disable-l7-retry if !METH_GET
  default_backend replicas

backend replicas
  balance leastconn
EOF
    for i in "${NODES[@]}"; do
      echo "  server r$i 127.0.0.1:$(api_port "$i") check port $(ops_port "$i")"
    done
  } >"$BASE/haproxy.cfg"
  haproxy -c -q -f "$BASE/haproxy.cfg"
  haproxy -D -f "$BASE/haproxy.cfg"
  log "haproxy on 127.0.0.1:$LB_PORT (statistics: 127.0.0.1:$STATS_PORT/stats)"
}

# --- commands ---------------------------------------------------------------------------------------------------

cmd_up() {
  id os >/dev/null 2>&1 || useradd -r -m -s /bin/bash os
  mkdir -p "$BASE"
  chmod 755 "$BASE"
  runuser -u os -- test -x "$BASE" || { log "$BASE is not reachable by user os; set NEWSINDEX_CLUSTER_DIR"; exit 1; }
  [ -f "$BASE/admin-token" ] || { head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$BASE/admin-token"; chmod 600 "$BASE/admin-token"; }
  DIST="$BASE/dist" bash "$ROOT/deploy/opensearch/assemble.sh" >/dev/null
  # At once: a node's start waits for the cluster to form, which takes the others.
  for i in "${NODES[@]}"; do start_opensearch "$i" & done
  start_postgres
  wait
  wait_opensearch 1
  # No replica runs: the replay clock (if any) starts again from NEWSINDEX_CLUSTER_NOW.
  [ -n "$(cmd_pids | grep '^api ' || true)" ] || rm -f "$BASE/api/replay-clock"
  mkdir -p "$BASE/api"
  for i in "${NODES[@]}"; do start_api "$i"; done
  for i in "${NODES[@]}"; do wait_ready "$i"; done
  start_haproxy
  [ -f "$BASE/key" ] || new_key local >"$BASE/key"
  chmod 600 "$BASE/key"
  echo "API http://127.0.0.1:$LB_PORT"
  echo "KEY $(cat "$BASE/key")"
}

# A new archive-plan tenant NAME and its key (printed).
new_key() {
  (cluster_env; newsindex keys create --tenant "$1" --plan archive --json) |
    node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).key))'
}

cmd_key() {
  [ -n "${1:-}" ] || { log "key needs a tenant NAME"; exit 2; }
  echo "KEY $(new_key "$1")"
}

cmd_ingest() {
  [ $# -gt 0 ] || { log "ingest needs at least one FILE"; exit 2; }
  local files=()
  for f in "$@"; do files+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"); done
  cluster_env
  export NEWSINDEX_CONSOLE_PORT=off
  # One ingesting process: it clusters stories (its data dir keeps that state between ingests).
  newsindex ingest --data-dir "$BASE/ingest" "${files[@]}"
  [ "${NEWSINDEX_CLUSTER_EMBED:-on}" = off ] || newsindex embed --data-dir "$BASE/ingest"
}

cmd_pids() {
  local pid
  for i in "${NODES[@]}"; do
    pid=$(read_pid "$BASE/api/r$i/pid"); pid_alive "$pid" && echo "api $pid"
  done
  for i in "${NODES[@]}"; do
    pid=$(read_pid "$BASE/opensearch/n$i/os.pid"); pid_alive "$pid" && echo "opensearch $pid"
  done
  if [ -z "${NEWSINDEX_CLUSTER_DATABASE_URL:-}" ]; then
    pid=$(head -1 "$BASE/postgres/data/postmaster.pid" 2>/dev/null || true); pid_alive "$pid" && echo "postgres $pid"
  fi
  pid=$(read_pid "$BASE/haproxy.pid"); pid_alive "$pid" && echo "haproxy $pid"
  return 0
}

cmd_status() {
  local url
  url="http://127.0.0.1:$(os_http 1)"
  for i in "${NODES[@]}"; do
    url="http://127.0.0.1:$(os_http "$i")"
    curl -s -m 2 "$url/_cluster/health" >/dev/null && break
  done
  echo "opensearch: $(curl -s -m 2 "$url/_cluster/health?filter_path=status,number_of_nodes,active_shards,unassigned_shards" || echo unreachable)"
  for i in "${NODES[@]}"; do
    echo "api r$i 127.0.0.1:$(api_port "$i"): $(curl -s -m 3 "http://127.0.0.1:$(ops_port "$i")/ready" || echo down)"
  done
  echo "postgres: $(pg_isready -q -d "$(database_url)" 2>/dev/null && echo accepting || echo down)"
  echo "haproxy 127.0.0.1:$LB_PORT: $(pid_alive "$(read_pid "$BASE/haproxy.pid")" && echo running || echo down)"
}

stop_pid() {
  local pid=$1
  pid_alive "$pid" || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 30); do pid_alive "$pid" || return 0; sleep 0.5; done
  kill -9 "$pid" 2>/dev/null || true
}

cmd_down() {
  stop_pid "$(read_pid "$BASE/haproxy.pid")"
  for i in "${NODES[@]}"; do stop_pid "$(read_pid "$BASE/api/r$i/pid")" & done
  wait
  for i in "${NODES[@]}"; do stop_pid "$(read_pid "$BASE/opensearch/n$i/os.pid")" & done
  wait
  stop_postgres
  log "stopped (data kept in $BASE)"
}

cmd_start() {
  case "${1:-}:${2:-}" in
    api:[123]) [ -f "$BASE/admin-token" ] || { log "run up first"; exit 1; }; start_api "$2"; wait_ready "$2" ;;
    opensearch:[123]) start_opensearch "$2"; wait_opensearch "$2" ;;
    postgres:) start_postgres ;;
    *) log "start api|opensearch N (1-3) | start postgres"; exit 2 ;;
  esac
}

case "${1:-}" in
  up) cmd_up ;;
  ingest) shift; cmd_ingest "$@" ;;
  pids) cmd_pids ;;
  status) cmd_status ;;
  down) cmd_down ;;
  start) shift; cmd_start "$@" ;;
  key) shift; cmd_key "$@" ;;
  *) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
