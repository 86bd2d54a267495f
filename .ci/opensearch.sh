#!/usr/bin/env bash
# Makes sure an OpenSearch node answers on 127.0.0.1:${NEWSINDEX_OPENSEARCH_PORT:-19200} for the tests of the
# scaled shape: a single node (OpenSearch 3.5 with the k-NN plugin, 512 MB heap) assembled from Maven Central by
# deploy/opensearch/ (assembled once, then reused), running as a non-root user, its distribution and data under
# .opensearch/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${NEWSINDEX_OPENSEARCH_PORT:-19200}
BASE=${NEWSINDEX_OPENSEARCH_BASE:-$PWD/.opensearch}
RECIPE=${NEWSINDEX_OPENSEARCH_UP:-deploy/opensearch/opensearch-up.sh}

ready() { curl -s "127.0.0.1:$PORT/_cluster/health" | grep -q '"status":"\(green\|yellow\)"'; }

if ready; then
  echo "OpenSearch ready on 127.0.0.1:$PORT"
  exit 0
fi
[ -f "$RECIPE" ] || { echo "no OpenSearch recipe at $RECIPE (set NEWSINDEX_OPENSEARCH_UP)" >&2; exit 1; }
# deploy/opensearch/assemble.sh installs Maven and unzip when missing, to fetch and unpack the artifacts.
# The node runs as the system user `os` (OpenSearch refuses root): it must reach BASE through every parent
# directory. A checkout under a private directory (mode 700) cannot be reached; the node then lives outside it.
id os >/dev/null 2>&1 || useradd -r -m -s /bin/bash os
if ! runuser -u os -- test -x "$(dirname "$BASE")"; then
  BASE=/var/tmp/newsindex-opensearch
  echo "the checkout is not reachable by user os; the node's files go to $BASE"
fi
# The recipe's own output (plugin permissions, health) is noise in a test log; kept beside the node instead.
mkdir -p "$BASE"
BASE="$BASE" PORT="$PORT" HEAP=512m bash "$RECIPE" >"$BASE/up.log" 2>&1 || {
  tail -n 30 "$BASE/up.log" >&2
  exit 1
}
ready || { echo "OpenSearch is not answering on 127.0.0.1:$PORT (see $BASE/console.log)" >&2; exit 1; }
echo "OpenSearch ready on 127.0.0.1:$PORT"
