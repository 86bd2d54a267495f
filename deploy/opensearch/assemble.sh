#!/usr/bin/env bash
# Assembles OpenSearch 3.5.0 with the k-NN 3.5.0.0 plugin (Java part, Lucene engine only) from two Maven Central
# artifacts into DIST/opensearch-3.5.0, owned by the system user `os` (OpenSearch refuses to run as root).
# An assembled distribution is reused: running this again costs nothing. Prints the distribution's directory.
#   DIST=/var/tmp/newsindex-opensearch-dist bash deploy/opensearch/assemble.sh
set -euo pipefail
OS_VER=3.5.0
KNN_VER=3.5.0.0
DIST=${DIST:?set DIST to a directory for the unpacked distribution}
M2=${M2_REPO:-$HOME/.m2/repository}
HOME_DIR="$DIST/opensearch-$OS_VER"
JAVA_HOME_OS=${JAVA_HOME_OS:-$(bash "$(dirname "$0")/java-home.sh")}

if [ -d "$HOME_DIR/plugins/opensearch-knn" ]; then
  echo "$HOME_DIR"
  exit 0
fi
missing=()
command -v mvn >/dev/null 2>&1 || missing+=(maven)
command -v unzip >/dev/null 2>&1 || missing+=(unzip)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} from Debian's packages" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
CORE_ZIP="$M2/org/opensearch/distribution/integ-test-zip/opensearch/$OS_VER/opensearch-$OS_VER.zip"
KNN_ZIP="$M2/org/opensearch/plugin/opensearch-knn/$KNN_VER/opensearch-knn-$KNN_VER.zip"
# 1. the two artifacts, into the local Maven repository unless they are there already
[ -f "$CORE_ZIP" ] || mvn -B -q dependency:get -Dartifact=org.opensearch.distribution.integ-test-zip:opensearch:$OS_VER:zip -Dtransitive=false >&2
[ -f "$KNN_ZIP" ] || mvn -B -q dependency:get -Dartifact=org.opensearch.plugin:opensearch-knn:$KNN_VER:zip -Dtransitive=false >&2

# 2. unpack, as user os; every parent of DIST must be reachable by that user
id os >/dev/null 2>&1 || useradd -r -m -s /bin/bash os
mkdir -p "$DIST"
rm -rf "$HOME_DIR"
cp "$KNN_ZIP" "$DIST/"
unzip -q "$CORE_ZIP" -d "$DIST"
chown -R os:os "$DIST"

# 3. the k-NN plugin (installed while no node of this distribution runs)
runuser -u os -- env OPENSEARCH_JAVA_HOME="$JAVA_HOME_OS" \
  "$HOME_DIR/bin/opensearch-plugin" install --batch "file://$DIST/opensearch-knn-$KNN_VER.zip" >&2
echo "$HOME_DIR"
