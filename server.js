/**
 * The HTTP server: Express in front of the Remix build. The request edge (cross-site writes,
 * declared body size, client address, HSTS, lingering close) lives in app/services/edge.server.ts
 * and runs before any route; server.js only wires it in.
 *
 * One server process per core (ADR 0017): a page's work is synchronous from its loaders to its
 * HTML, so one process uses one core. The primary process only forks the workers, starts another
 * when one dies and stops them on SIGTERM/SIGINT; every worker is the whole server (serve()) on the
 * same SQLite file. WEB_CONCURRENCY sets the count; with 1, or in development, there is no primary.
 */
import cluster from "node:cluster";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import url from "node:url";

const BUILD_PATH = path.resolve("build/index.js");
const development = process.env.NODE_ENV === "development";
/** How long stopping workers may finish their requests before they are killed. */
const STOP_GRACE_MS = 10_000;

/** WEB_CONCURRENCY, else one per core. Development is one process: `remix dev` talks to it. */
function processCount() {
  if (development) return 1;
  const value = process.env.WEB_CONCURRENCY;
  if (!value) return os.availableParallelism();
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) {
    console.error(`WEB_CONCURRENCY debe ser un número entero mayor que 0 (es «${value}»).`);
    process.exit(1);
  }
  return count;
}

/** The server's first line: the mode React and Express run in, and how many processes serve. */
function modeLine(count) {
  const processes =
    count === 1
      ? "1 proceso"
      : `${count} procesos (${process.env.WEB_CONCURRENCY ? "WEB_CONCURRENCY" : "uno por núcleo"})`;
  switch (process.env.NODE_ENV) {
    case "production":
      return `CotizaHub en modo producción (NODE_ENV=production), ${processes}`;
    case "development":
      return "CotizaHub en modo desarrollo (NODE_ENV=development), 1 proceso que recarga la compilación en cada petición";
    default:
      return `CotizaHub en modo desarrollo (NODE_ENV=${process.env.NODE_ENV ?? "sin definir"}), ${processes}: para producción, npm start o NODE_ENV=production`;
  }
}

/**
 * Which React build renders the pages, read from the module Node actually loaded (React chooses
 * by NODE_ENV when it is first imported), so the log tells what runs, not what was asked for.
 */
function reactBuild() {
  const renderer = Object.values(createRequire(import.meta.url).cache).find(
    (module) =>
      module?.loaded && /react-dom-server-legacy\.node\.[a-z.]+\.js$/.test(module.filename),
  );
  if (!renderer) return "React sin cargar";
  return renderer.filename.includes(".production.") ? "React de producción" : "React de desarrollo";
}

function runPrimary(count) {
  const live = new Set();
  const listened = new Set();
  let stopping = false;
  let exitCode = 0;

  const stop = (code) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    if (live.size === 0) process.exit(exitCode);
    for (const worker of Object.values(cluster.workers ?? {})) worker.process.kill("SIGTERM");
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker.process.kill("SIGKILL");
    }, STOP_GRACE_MS).unref();
  };

  cluster.on("listening", (worker) => listened.add(worker.id));
  cluster.on("exit", (worker, code, signal) => {
    live.delete(worker.id);
    // A worker ends cleanly only when told to: by the primary, or by a terminal's Ctrl-C, which
    // reaches every process of the group, the workers sometimes before the primary.
    if (stopping || (code === 0 && !signal)) {
      if (live.size === 0) process.exit(exitCode);
      return;
    }
    const how = signal ? `la señal ${signal}` : `el código ${code}`;
    // It never served: the next one would fail the same way (a missing build, a port in use).
    if (!listened.has(worker.id)) {
      console.error(`Un proceso del servidor terminó con ${how} antes de escuchar: se detiene.`);
      stop(1);
      return;
    }
    console.error(
      `El proceso ${worker.process.pid} del servidor terminó con ${how}: se inicia otro.`,
    );
    live.add(cluster.fork().id);
  });
  relayEventLoopReadings();
  for (let i = 0; i < count; i++) live.add(cluster.fork().id);
  for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => stop(0));
}

/**
 * Benchmarks only: a worker asked for /__bench/event-loop gets every worker's reading through the
 * primary, and answers the worst of each figure (each reading resets that worker's histogram).
 */
function relayEventLoopReadings() {
  const asks = new Map();
  cluster.on("message", (worker, message) => {
    if (message?.benchEventLoop === "ask") {
      const workers = Object.values(cluster.workers ?? {});
      asks.set(message.ask, { from: worker, waiting: workers.length, delay: {} });
      for (const each of workers) each.send({ benchEventLoop: "read", ask: message.ask });
    } else if (message?.benchEventLoop === "reading") {
      const ask = asks.get(message.ask);
      if (!ask) return;
      for (const [name, ms] of Object.entries(message.delay))
        ask.delay[name] = Math.max(ask.delay[name] ?? 0, ms);
      if (--ask.waiting > 0) return;
      asks.delete(message.ask);
      ask.from.send({ benchEventLoop: "worst", ask: message.ask, delay: ask.delay });
    }
  });
}

async function serve() {
  // Imported here, not above: the cluster primary serves nothing and stays small.
  const [{ createRequestHandler }, { broadcastDevReady, installGlobals }, compression, express] =
    await Promise.all([
      import("@remix-run/express"),
      import("@remix-run/node"),
      import("compression").then((module) => module.default),
      import("express").then((module) => module.default),
    ]);
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
    const read = () => {
      const ms = (ns) => Math.round(ns / 1e4) / 100;
      const delay = {
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
      };
      histogram.reset();
      return delay;
    };
    let asked = 0;
    const answers = new Map();
    process.on("message", (message) => {
      if (message?.benchEventLoop === "read")
        process.send({ benchEventLoop: "reading", ask: message.ask, delay: read() });
      if (message?.benchEventLoop === "worst") answers.get(message.ask)?.(message.delay);
    });
    const everyWorker = () =>
      new Promise((resolve) => {
        const ask = `${process.pid}:${++asked}`;
        answers.set(ask, (delay) => {
          answers.delete(ask);
          resolve(delay);
        });
        process.send({ benchEventLoop: "ask", ask });
      });
    app.get("/__bench/event-loop", async (req, res) => {
      res.json(cluster.isWorker ? await everyWorker() : read());
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
  app.use(
    express.static("public", { maxAge: "1h", setHeaders: (res) => edge().staticHeaders(res) }),
  );
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
    const who = cluster.isWorker ? `proceso ${process.pid}, ` : "";
    console.log(`CotizaHub escuchando en http://localhost:${port} (${who}${reactBuild()})`);
    if (development) void broadcastDevReady(build);
  });

  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    server.close(() => process.exit(0));
  };
  // Both, once each: a terminal's Ctrl-C reaches every process of the group, and the primary then
  // sends SIGTERM; the same signal again ends the process at once.
  for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, close);
}

const count = processCount();
if (cluster.isPrimary) console.log(modeLine(count));
if (cluster.isPrimary && count > 1) runPrimary(count);
else await serve();
