#!/bin/sh
# `npm test`: installs what a fresh machine lacks, then runs every check in order of speed.
set -eu
cd "$(dirname "$0")/.."

if [ ! -x node_modules/.bin/remix ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # `npm install`, not `npm ci`: the registry here lacks other platforms' optional rollup binaries,
  # so the lock cannot list them and `npm ci` refuses it; `npm install` still follows the lock.
  echo "==> Instalando dependencias"
  npm install --no-audit --no-fund
fi

if [ ! -x /usr/bin/chromium ]; then
  echo "==> Instalando Chromium de Debian"
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
fi

echo "==> Formato (prettier)"
npx prettier --check . --log-level warn
echo "==> Lint (eslint)"
npx eslint . --max-warnings 0
echo "==> Tipos (tsc)"
npx tsc --noEmit
echo "==> Pruebas unitarias y de integración (vitest)"
npx vitest run
echo "==> Compilación (remix build)"
npx remix build
echo "==> Recorridos en navegador (playwright)"
npx playwright test
