// Runs the server script given as the argument in WORKERS worker processes (default 2) sharing
// one port through node:cluster, as the app's server runs WEB_CONCURRENCY workers: bench/throughput.ts
// starts the bare server and the minimal Next app this way, so every floor has two workers too.
import cluster from "node:cluster";
import path from "node:path";
import { pathToFileURL } from "node:url";

if (cluster.isPrimary) {
  const count = Number(process.env.WORKERS ?? 2);
  for (let i = 0; i < count; i++) cluster.fork();
  const stop = (signal) => {
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    cluster.on("exit", () => Object.keys(cluster.workers ?? {}).length === 0 && process.exit(0));
    for (const worker of workers) worker?.process.kill(signal);
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
} else {
  await import(pathToFileURL(path.resolve(process.argv[2])).href);
}
