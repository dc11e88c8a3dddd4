#!/bin/bash
# Run once by the postgres image on the primary's first start (/docker-entrypoint-initdb.d): the
# role the replica streams with, its slot (the primary keeps WAL until the replica has it), the
# replication line of pg_hba.conf, and Keycloak's own database.
set -euo pipefail
: "${REPLICATION_PASSWORD:?set REPLICATION_PASSWORD in postgres.env}"
: "${KEYCLOAK_DB_PASSWORD:?set KEYCLOAK_DB_PASSWORD in postgres.env}"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v replication_password="$REPLICATION_PASSWORD" -v keycloak_password="$KEYCLOAK_DB_PASSWORD" <<'SQL'
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD :'replication_password';
SELECT pg_create_physical_replication_slot('replica1');
CREATE ROLE keycloak WITH LOGIN PASSWORD :'keycloak_password';
CREATE DATABASE keycloak OWNER keycloak;
SQL
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
