#!/usr/bin/env bash
# Prints a JDK of version 21 or later under /usr/lib/jvm (OpenSearch 3.5 refuses Java 17, Debian's default).
set -euo pipefail
for dir in /usr/lib/jvm/*; do
  [ -x "$dir/bin/java" ] || continue
  version=$("$dir/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  if [ -n "$version" ] && [ "$version" -ge 21 ]; then
    echo "$dir"
    exit 0
  fi
done
echo "no JDK >= 21 under /usr/lib/jvm (install e.g. Temurin 21)" >&2
exit 1
