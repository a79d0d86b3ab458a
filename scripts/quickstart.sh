#!/bin/sh
# `npm run quickstart`: a fresh clone to a running marketplace with demo data on :3000.
set -eu
cd "$(dirname "$0")/.."
if [ ! -x node_modules/.bin/remix ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # See scripts/test.sh for why this is `npm install`.
  npm install --no-audit --no-fund
fi
npx tsx scripts/migrate.ts
npx tsx scripts/seed.ts
npx remix build
# Served as `npm start` serves it: production mode, one process per core.
exec sh scripts/start.sh
