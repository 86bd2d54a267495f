#!/usr/bin/env bash
# A single OpenSearch 3.5.0 node (+ k-NN 3.5.0.0) for development and the tests, from the distribution
# deploy/opensearch/assemble.sh puts together (reused when assembled already), as the system user `os`.
#   BASE=$PWD/.opensearch PORT=19200 HEAP=512m bash deploy/opensearch/opensearch-up.sh
#   stop: kill "$(cat "$BASE/os.pid")"
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BASE=${BASE:?set BASE to a directory for the node, e.g. BASE=$PWD/.opensearch}
HEAP=${HEAP:-512m}
PORT=${PORT:-19200}
HOME_DIR=$(DIST="$BASE" bash "$HERE/assemble.sh")
JAVA_HOME_OS=${JAVA_HOME_OS:-$(bash "$HERE/java-home.sh")}
mkdir -p "$BASE/data" "$BASE/logs"
chown -R os:os "$BASE/data" "$BASE/logs"
START=$(date +%s)
runuser -u os -- env OPENSEARCH_JAVA_HOME="$JAVA_HOME_OS" OPENSEARCH_JAVA_OPTS="-Xms$HEAP -Xmx$HEAP" \
  "$HOME_DIR/bin/opensearch" -d -p "$BASE/os.pid" \
  -Ediscovery.type=single-node -Enetwork.host=127.0.0.1 \
  -Ehttp.port="$PORT" -Etransport.port=$((PORT + 100)) \
  -Epath.data="$BASE/data" -Epath.logs="$BASE/logs" \
  </dev/null >"$BASE/console.log" 2>&1 # the daemon must not hold the caller's pipes
for _ in $(seq 1 240); do
  curl -s "127.0.0.1:$PORT/_cluster/health" | grep -q '"status":"\(green\|yellow\)"' && break
  sleep 0.5
done
echo "up after $(($(date +%s) - START)) s; pid $(cat "$BASE/os.pid")"
