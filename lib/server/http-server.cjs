// The production server: the build places this file at .next/standalone/server.js in place of
// the one Next generates (scripts/build-if-changed.mjs), so `npm start` and the container image
// run it. It does what Next's own server does (one node:http server handing every request to
// Next's request handler) and what that server cannot:
// - bounds slow clients: headers within 10 s, the whole request within 30 s (408, CONTRACT §18);
// - meets every request at one front door (front-door.cjs): refuses what Next would answer with a
//   500 (a malformed escape, a method Next does not route) or reads needlessly (a body over 1 MiB
//   outside the API), and under the API passes such a request on marked for the pipeline;
// - bounds connections per client address and in all, and answers what Node's parser refuses
//   (headers over 16 KiB, a malformed request) with problem+json (connections.cjs);
// - answers the API (/ext/svc/) itself, with the very handlers its route files export, without
//   Next's per-request machinery (api-fast-path.cjs; API_FAST_PATH=0 leaves it to Next);
// - writes one JSON line for everything the process prints, Next's console output included (server-log.cjs);
// - runs WEB_CONCURRENCY worker processes with DATABASE_URL (the embedded PGlite is owned by one
//   process), restarts a worker that dies, replaces one that cannot reach the database while
//   the others can (each reports its readiness, lib/server/readiness.ts), and on SIGTERM or
//   SIGINT stops accepting, lets in-flight requests finish for up to 10 s, then exits.
// Plain CommonJS with no imports but Node's, Next's and its own helpers beside it (placed with it,
// scripts/build-if-changed.mjs): it runs beside the traced node_modules.
"use strict";

const cluster = require("node:cluster");
const fs = require("node:fs");
const http = require("node:http");
const os = require("node:os");
const path = require("node:path");
const { createApiFastPath } = require("./api-fast-path.cjs");
const { createRequestListener } = require("./front-door.cjs");
const { answerClientErrors, connectionLimitsFrom, limitConnections } = require("./connections.cjs");
const { log, routeConsoleToLog } = require("./server-log.cjs");

const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
const SHUTDOWN_GRACE_MS = 10_000;
/** What a worker tells the primary every second: whether it can run a query now (lib/server/readiness.ts). */
const READINESS_MESSAGE = "bank-templates:readiness";
/** A worker's latest ready report counts this long. */
const READINESS_FRESH_MS = 3_000;
/** A worker not ready for this long while another one is gets replaced (CONTRACT §19). */
const REPLACE_UNREADY_AFTER_MS = 20_000;

const dir = __dirname;
process.env.NODE_ENV = "production";
process.chdir(dir);
routeConsoleToLog();

/** How many worker processes: WEB_CONCURRENCY, else one per CPU; always one on the embedded database. */
function workerCount(env) {
  const asked = Number.parseInt(env.WEB_CONCURRENCY ?? "", 10);
  if (!env.DATABASE_URL) {
    if (asked > 1) console.warn("WEB_CONCURRENCY is ignored without DATABASE_URL: one process owns the embedded database.");
    return 1;
  }
  return Number.isInteger(asked) && asked > 0 ? asked : os.availableParallelism();
}

// --- The primary: keeps WEB_CONCURRENCY workers running ---------------------------------------

function runPrimary(count) {
  let stopping = false;
  const restarts = [];
  /**
   * Per worker id: when it last reported ready, since when it has not been while another worker
   * was, why not (its last report), and whether it is being replaced.
   */
  const readiness = new Map();
  const fork = (env) => {
    const worker = cluster.fork(env);
    readiness.set(worker.id, { readyAt: -Infinity, unreadySince: null, reason: null, replaced: false });
    return worker;
  };
  cluster.on("message", (worker, message) => {
    const state = readiness.get(worker.id);
    if (!state || message?.type !== READINESS_MESSAGE) return;
    if (message.ok === true) state.readyAt = Date.now();
    state.reason = message.ok === true ? null : String(message.reason ?? "not ready");
  });
  // A worker that cannot reach the database while another one can has something of its own
  // broken (its connections, its start-up): a new process starts clean. Time counts only while
  // another worker is ready, so during an outage of the database itself none is replaced.
  const replaceUnready = () => {
    const now = Date.now();
    const current = Object.values(cluster.workers ?? {}).filter((worker) => worker && !readiness.get(worker.id)?.replaced);
    const isReady = (worker) => now - readiness.get(worker.id).readyAt < READINESS_FRESH_MS;
    const anyReady = current.some(isReady);
    for (const worker of current) {
      const state = readiness.get(worker.id);
      if (isReady(worker) || !anyReady) {
        state.unreadySince = null;
        continue;
      }
      // Since its last ready report, counted back no further than the moment it could have
      // been seen unready: before that, another worker may not have been ready.
      state.unreadySince ??= Math.max(state.readyAt, now - READINESS_FRESH_MS);
      if (now - state.unreadySince < REPLACE_UNREADY_AFTER_MS) continue;
      state.replaced = true;
      log("warn", "a worker process has not reached the database while another has; replacing it", {
        worker_pid: worker.process.pid,
        unready_ms: now - state.unreadySince,
        reason: state.reason ?? "no readiness report",
      });
      fork();
      worker.process.kill("SIGTERM");
      setTimeout(() => worker.isDead() || worker.process.kill("SIGKILL"), SHUTDOWN_GRACE_MS + 5_000).unref();
    }
  };
  setInterval(() => stopping || replaceUnready(), 1_000).unref();
  cluster.on("exit", (worker, code, signal) => {
    const replaced = readiness.get(worker.id)?.replaced;
    readiness.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    if (replaced) return;
    // A worker that keeps dying right after start (a bad config) is restarted at most once a second.
    const now = Date.now();
    restarts.push(now);
    while (restarts.length && restarts[0] < now - 10_000) restarts.shift();
    const delay = restarts.length > 5 ? 1_000 : 0;
    log("warn", "a worker process exited; starting another", { worker_pid: worker.process.pid, code, signal });
    setTimeout(fork, delay);
  });
  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    log("info", `${signal}: stopping the workers`);
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker?.process.kill(signal);
    // A worker gets its own grace period; this one only catches a worker that hangs past it.
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + 5_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  log("info", `starting ${count} worker processes`);
  // For tests only (tests/worker-outage.test.ts), unset in production: the first worker reaches
  // the database at this URL instead of DATABASE_URL, through a proxy the test alone cuts.
  const firstWorkerDatabaseUrl = process.env.TEST_ONLY_FIRST_WORKER_DATABASE_URL;
  for (let i = 0; i < count; i++) fork(i === 0 && firstWorkerDatabaseUrl ? { DATABASE_URL: firstWorkerDatabaseUrl } : undefined);
}

// --- A worker (or the only process): Next behind a bounded node:http server ---------------------

async function runWorker() {
  const config = JSON.parse(fs.readFileSync(path.join(dir, ".next", "required-server-files.json"), "utf8")).config;
  // What Next's generated server.js does: the build's config, not a next.config file (there is none here).
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
  const port = Number.parseInt(process.env.PORT ?? "", 10) || 3000;
  const hostname = process.env.HOSTNAME || "0.0.0.0";
  const next = require("next");
  const app = next({ dev: false, dir, hostname, port, conf: config });
  const handle = app.getRequestHandler();
  /** The API's fast path once Next is prepared, unless API_FAST_PATH=0 (or the build has no routes it can serve). */
  let serveApi = null;

  let stopping = false;
  const server = http.createServer(
    {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      // How often Node checks those two timeouts (default 30 s, which would let a request run to 60 s).
      connectionsCheckingInterval: 1_000,
    },
    createRequestListener({ serveApi: () => serveApi, handle, stopping: () => stopping, log }),
  );
  server.keepAliveTimeout = Number.parseInt(process.env.KEEP_ALIVE_TIMEOUT ?? "", 10) || 5_000;
  const limits = connectionLimitsFrom(process.env);
  if (limits.lowered) {
    log("warn", "MAX_CONNECTIONS is lowered to three quarters of the process's open-file limit", {
      max_connections: limits.total,
      open_files: limits.descriptors,
    });
  }
  limitConnections(server, limits, log);
  answerClientErrors(server, log);

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Stop accepting; idle keep-alive connections close now, busy ones after their answer.
    server.close();
    server.closeIdleConnections();
    const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    await new Promise((resolve) => server.once("close", resolve));
    clearInterval(idleSweep);
    clearTimeout(deadline);
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // A worker of a primary that is gone (killed with -9) has nobody to serve for.
  if (cluster.isWorker) process.on("disconnect", stop);

  await app.prepare();
  if (process.env.API_FAST_PATH !== "0") {
    const fastPath = createApiFastPath({ distDir: path.join(dir, ".next"), hostname, port });
    serveApi = fastPath.serve;
    if (fastPath.reason) log("warn", "the API is served through Next's router", { reason: fastPath.reason });
  }
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, resolve);
  });
  log("info", `listening on http://${hostname}:${port}`, { max_connections: limits.total, max_connections_per_address: limits.perAddress });
}

const workers = workerCount(process.env);
if (workers > 1 && cluster.isPrimary) {
  runPrimary(workers);
} else {
  runWorker().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
