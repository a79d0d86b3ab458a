# CotizaHub: one image for one server (SQLite + Litestream) or for LiteFS replicas (ADR 0013).
# Slim Node 20; no browser (Chromium is only for the journeys, never in production).

FROM node:20-slim AS base
ENV NODE_ENV=production
# ca-certificates: S3 and SMTP over TLS; fuse3: LiteFS's FUSE mount (unused without LiteFS);
# sqlite3: the operator's shell on the volume.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates fuse3 sqlite3 \
  && rm -rf /var/lib/apt/lists/*

# Every dependency, to build (better-sqlite3 falls back to compiling when no prebuilt binary fits).
FROM base AS deps
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# patches/: fixes to dependencies that npm install's postinstall applies (patch-package).
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm install --include=dev --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build && npm prune --omit=dev

FROM base
WORKDIR /app
# LiteFS, only used when fly.toml starts the machine with `litefs mount` (litefs.yml).
COPY --from=flyio/litefs:0.5 /usr/local/bin/litefs /usr/local/bin/litefs
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY package.json server.js litestream.yml litefs.yml tsconfig.json ./
COPY app ./app
COPY db ./db
COPY scripts ./scripts
ENV PORT=3000 \
  DATABASE_PATH=/data/app.sqlite \
  UPLOADS_DIR=/data/uploads \
  MAIL_DIR=/data/mail
EXPOSE 3000
# Migrations, then the server; under Litestream when LITESTREAM_REPLICA_URL is set (scripts/start.sh).
CMD ["sh", "scripts/start.sh"]
