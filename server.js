/**
 * The HTTP server: Express in front of the Remix build. The request edge (cross-site writes,
 * declared body size, client address, HSTS, lingering close) lives in app/services/edge.server.ts
 * and runs before any route; server.js only wires it in.
 */
import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";

const BUILD_PATH = path.resolve("build/index.js");
const development = process.env.NODE_ENV === "development";

installGlobals({ nativeFetch: true });

async function importBuild() {
  const stamp = development ? `?t=${fs.statSync(BUILD_PATH).mtimeMs}` : "";
  return import(url.pathToFileURL(BUILD_PATH).href + stamp);
}

let build = await importBuild();
const edge = () => build.entry.module.edge;

const app = express();
app.disable("x-powered-by");
// Benchmarks only (bench/pages.ts sets BENCH_EVENT_LOOP=1): the event-loop delay the requests
// caused, read and reset at /__bench/event-loop. Never enabled otherwise.
if (process.env.BENCH_EVENT_LOOP === "1" && !development) {
  const { monitorEventLoopDelay } = await import("node:perf_hooks");
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  app.get("/__bench/event-loop", (req, res) => {
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    res.json({
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
    });
    histogram.reset();
  });
}
if (edge().trustProxy) app.set("trust proxy", true);
app.use((req, res, next) => edge().guard(req, res, next));
// LiteFS read replicas (off without LITEFS_DIR): writes are replayed on the primary.
app.use((req, res, next) => edge().replicaGuard(req, res, next).catch(next));
app.use(compression());
app.use(
  build.publicPath,
  express.static(build.assetsBuildDirectory, {
    immutable: true,
    maxAge: "1y",
    setHeaders: (res) => edge().staticHeaders(res),
  }),
);
app.use(express.static("public", { maxAge: "1h", setHeaders: (res) => edge().staticHeaders(res) }));
// Each page request in its own turn of the event loop (see takeTurn); files above are not queued.
app.use((req, res, next) => edge().takeTurn(req, res, next));
// One handler for the life of the process: building it derives the route tree, which cost
// every request about a tenth of its CPU when it was built per request. Development rebuilds it
// on each request so edits show without a restart.
let handler = createRequestHandler({ build, mode: build.mode });
app.all("*", async (req, res, next) => {
  if (development) {
    build = await importBuild();
    handler = createRequestHandler({ build, mode: build.mode });
  }
  return handler(req, res, next);
});

const port = Number(process.env.PORT ?? 3000);
const server = app.listen(port, process.env.HOST ?? undefined, () => {
  console.log(`CotizaHub escuchando en http://localhost:${port}`);
  if (development) void broadcastDevReady(build);
});

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => server.close(() => process.exit(0)));
}
