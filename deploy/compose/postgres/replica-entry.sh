#!/bin/bash
# The replica's entry (run as root by Compose, like the postgres image's own): on an empty
# volume, a base backup of the primary with pg_basebackup (-R writes standby.signal and
# primary_conninfo); then PostgreSQL as a hot standby streaming from the slot replica1.
set -euo pipefail
: "${PGDATA:?}"
: "${PRIMARY_HOST:?}"
: "${REPLICATION_PASSWORD:?set REPLICATION_PASSWORD in postgres.env}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA"
  chown -R postgres:postgres "$(dirname "$PGDATA")"
  chmod 0700 "$PGDATA"
  until gosu postgres pg_isready --host "$PRIMARY_HOST" --quiet; do sleep 1; done
  PGPASSWORD="$REPLICATION_PASSWORD" gosu postgres pg_basebackup --host "$PRIMARY_HOST" --username replicator \
    --pgdata "$PGDATA" --wal-method stream --slot replica1 --write-recovery-conf --checkpoint fast --progress
fi
exec gosu postgres postgres -c hot_standby=on -c hot_standby_feedback=on
