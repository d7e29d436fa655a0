#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server: Debian's postgresql package (installed
# here when missing), a cluster made by initdb in a temporary folder as an unprivileged
# user, listening on 127.0.0.1 at a free port with trust authentication, and stopped (and
# its folder removed) when the command ends, however it ends. The command finds it in
# DUPMJ_TEST_PG (a URL of the superuser `postgres` on the database `postgres`).
#
#   tools/with-postgres.sh cargo test -p store
set -euo pipefail
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bindir" ] || ! [ -x "$bindir/initdb" ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
    bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi
# PostgreSQL refuses to run as root: the cluster belongs to `nobody` when we are root.
as=()
if [ "$(id -u)" -eq 0 ]; then
    as=(runuser -u nobody --)
fi
dir=$(mktemp -d /tmp/dupmj-pg.XXXXXX)
chmod 755 "$dir"
[ "$(id -u)" -eq 0 ] && chown nobody "$dir"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
stop() {
    "${as[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT
"${as[@]}" "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
"${as[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=300" start >/dev/null
export DUPMJ_TEST_PG="postgres://postgres@127.0.0.1:$port/postgres"
"$@"
