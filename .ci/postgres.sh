#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers on 127.0.0.1:5432 with trust auth for
# the tests of the scaled shape (control store shared by replicas).
set -euo pipefail

ready() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "installing PostgreSQL from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  # Local test server only: trust connections from this machine.
  sed -i -E 's/^(host\s+all\s+all\s+127\.0\.0\.1\/32\s+)\S+/\1trust/; s/^(host\s+all\s+all\s+::1\/128\s+)\S+/\1trust/' \
    "/etc/postgresql/$version/main/pg_hba.conf"
fi

if ! ready; then
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
fi

for _ in $(seq 1 30); do ready && break; sleep 1; done
ready || { echo "PostgreSQL is not answering on 127.0.0.1:5432" >&2; exit 1; }
psql -h 127.0.0.1 -U postgres -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname = 'test'" | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -d postgres -c "CREATE DATABASE test"
echo "PostgreSQL ready on 127.0.0.1:5432"
