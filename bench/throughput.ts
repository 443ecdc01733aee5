// The throughput report of `npm run bench` (issues 9 and 39): the app (its production server, as
// `npm start` runs it, two worker processes) on PostgreSQL with 100k templates, serving the API by
// its fast path and, as the same build with API_FAST_PATH=0, through Next's router; beside a bare
// node:http + postgres.js server answering the same four reads with the same queries and key
// check (bench/bare-server.mjs), and a minimal Next.js app of the installed version with one route
// answering "ok" (bench/next-floor, served by the standalone server Next generates for it) as the
// framework's floor, both with two workers too (bench/cluster.mjs). autocannon, 32 connections,
// every target once per round, rounds alternating, so a noisy machine slows all of them alike.
//
// Which build: BENCH_APP_DIR (a directory with a production `.next`), else the repository's own
// `.next` when it holds a build (BUILD_ID), else a fresh build in a temporary copy of the working
// tree (node_modules hard-linked, or symlinked across file systems), removed afterwards.
// BENCH_CPU_PROF=<dir> runs the 100k app (fast path) under `node --cpu-prof` and writes its workers' profiles there.
// Beside each target's req/s it prints the CPU time its requests cost, per request: the server's
// processes (a cluster's workers included), PostgreSQL's and the load generator's (Linux /proc).
// A poller's conditional GET (CONTRACT §19: If-None-Match naming the current ETag, answered 304
// with no body) is measured beside the full GET of the same template and the same bank policy.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { PgDialect } from "drizzle-orm/pg-core";
import { type DatabaseHandle, openPostgres } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { loadConfig } from "@/lib/platform/config";
import { insertApiKey } from "@/lib/services/identity/api-keys";
import { templateJson } from "@/lib/services/templates/template-fields";
import { freePort } from "@/tests/support/free-port";
import { placeServer, placeStandaloneAssets } from "../scripts/build-if-changed.mjs";
import { freshBenchDatabase } from "./databases";
import { seedTemplates } from "./seed";

const ROOT = path.resolve(__dirname, "..");
const CONNECTIONS = 32;
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WARM_UP_SECONDS = 5;

/** A manifest of realistic size, so GET one template carries what a real one does. */
const MANIFEST = JSON.stringify({
  version: "1",
  bank: { retain_mission: "Keep decisions and their reasons.", disposition_skepticism: 3, enable_observations: true },
  mental_models: [
    { id: "open-questions", name: "Open questions", source_query: "What is still open?" },
    { id: "decisions", name: "Decisions", source_query: "What was decided?", trigger: { mode: "delta" } },
  ],
  directives: [
    { name: "Cite sources", content: "Name the document each fact comes from.", priority: 5 },
    { name: "Be brief", content: "Answer in three sentences or fewer." },
  ],
});

/** `rows` templates: half the heavy owner's (the one the bench reads), the rest spread out. */
export async function seed(db: DatabaseHandle["db"], rows: number) {
  await seedTemplates(db, rows, MANIFEST);
  const key = await insertApiKey(db, { userId: "heavy", serviceAccountId: null }, { description: "bench" });
  return key.token;
}

async function createDatabase(serverUrl: string, rows: number) {
  const database = await freshBenchDatabase(serverUrl);
  // Not the app's 4-second statement bound: seeding 100k rows may take longer on a busy machine.
  const handle = await openPostgres(database.url, { bounded: false });
  await runMigrations(handle, database.url);
  const token = await seed(handle.db, rows);
  await handle.close();
  return { ...database, token };
}

/**
 * A production build of the Next.js project at `source` in a temporary copy (node_modules
 * hard-linked, or symlinked across file systems), and how to remove it.
 */
function buildCopy(source: string, prefix: string, log: (line: string) => void): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  log(`Building ${path.relative(ROOT, source) || "the app"} in ${dir}…`);
  cpSync(source, dir, {
    recursive: true,
    filter: (file) => !/[/\\](node_modules|\.next|\.git|\.data|test-results)$/.test(file),
  });
  const linked = spawnSync("cp", ["-al", path.join(ROOT, "node_modules"), path.join(dir, "node_modules")]);
  if (linked.status !== 0) symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  const built = spawnSync(process.execPath, [path.join(dir, "node_modules/next/dist/bin/next"), "build"], { cwd: dir, stdio: "inherit" });
  if (built.status !== 0) throw new Error(`next build of ${source} failed`);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The directory of the app's production build, and how to clean up after it. */
export function appBuild(log: (line: string) => void): { dir: string; cleanup(): void } {
  const given = process.env.BENCH_APP_DIR;
  if (given) return { dir: path.resolve(given), cleanup: () => {} };
  if (existsSync(path.join(ROOT, ".next", "BUILD_ID"))) return { dir: ROOT, cleanup: () => {} };
  const copy = buildCopy(ROOT, "bench-app-", log);
  // As scripts/build-if-changed.mjs does after a build: our server in the standalone output.
  placeServer(copy.dir);
  placeStandaloneAssets(copy.dir, { replace: true });
  return copy;
}

export interface Server {
  name: string;
  port: number;
  /** The server's process (a cluster's primary, whose workers are its children). */
  pid: number;
  stop(): Promise<void>;
}

async function waitReady(port: number, path: string, child: ChildProcess, name: string) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}${path}`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} did not become ready on port ${port}`);
}

function startProcess(name: string, port: number, args: string[], cwd: string, env: Record<string, string>, readyPath: string) {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env, PORT: String(port) },
    // The servers log as in production (the app a line per request, to stderr), but not into the report.
    stdio: "ignore",
  });
  const server: Server = {
    name,
    port,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        // SIGINT lets Next exit normally, which is when --cpu-prof writes the profile.
        child.kill("SIGINT");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
  return waitReady(port, readyPath, child, name).then(() => server);
}

/** The app's production server (what `npm start` runs) with `workers` worker processes; `settings` add to its environment. */
export function startApp(
  dir: string,
  port: number,
  databaseUrl: string,
  workers: number,
  cpuProfDir?: string,
  settings: Record<string, string> = {},
) {
  const profile = cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfDir)}`] : [];
  const env = {
    DATABASE_URL: databaseUrl,
    SECRET_KEY: randomBytes(32).toString("hex"),
    NODE_ENV: "production",
    HOSTNAME: "127.0.0.1",
    WEB_CONCURRENCY: String(workers),
    ...settings,
  };
  const server = path.join(dir, ".next", "standalone", "server.js");
  return startProcess(`app :${port} (${workers} worker${workers > 1 ? "s" : ""})`, port, [...profile, server], dir, env, "/readyz");
}

interface Target {
  label: string;
  url: string;
  token?: string;
  /** The ETag to send as If-None-Match: the target is then answered 304, not 200. */
  held?: string;
  /** The process serving it, for its CPU time. */
  server: Server;
}

/** One target's measurement: requests per second, and CPU time spent on its requests. */
interface Sample {
  rate: number;
  requests: number;
  cpu: CpuTime;
}

async function measure(target: Target, seconds: number): Promise<Sample> {
  const before = cpuTime(target.server.pid);
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: {
      ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
      ...(target.held ? { "if-none-match": target.held } : {}),
    },
  });
  const answered = target.held ? result["3xx"] : result["2xx"];
  const failed = result.requests.total - answered + result.errors + result.timeouts;
  if (failed > 0) {
    const statuses = JSON.stringify((result as { statusCodeStats?: unknown }).statusCodeStats ?? {});
    throw new Error(
      `${target.label}: ${failed} of ${result.requests.total} requests failed (not ${target.held ? 304 : "2xx"}, errors or timeouts; statuses ${statuses})`,
    );
  }
  return { rate: result.requests.average, requests: result.requests.total, cpu: cpuSince(before, cpuTime(target.server.pid)) };
}

/** Mean requests per second of each target over alternating rounds, and its CPU time per request. */
async function rounds(targets: Target[], log: (line: string) => void): Promise<{ rate: Map<string, number>; cpu: Map<string, CpuTime> }> {
  // Warm-up: JIT, pools, caches (a worker process of the two-worker server warms up on its own).
  for (const target of targets) await measure(target, WARM_UP_SECONDS);
  const samples = new Map<string, Sample[]>(targets.map((t) => [t.label, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate the order too, so no target always runs right after the same one.
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) samples.get(target.label)!.push(await measure(target, ROUND_SECONDS));
    log(`  round ${round + 1}/${ROUNDS}: ${targets.map((t) => `${t.label} ${samples.get(t.label)!.at(-1)!.rate.toFixed(0)}`).join(", ")}`);
  }
  const rate = new Map([...samples].map(([label, values]) => [label, values.reduce((sum, s) => sum + s.rate, 0) / values.length]));
  const cpu = new Map([...samples].map(([label, values]) => [label, perRequest(values)]));
  return { rate, cpu };
}

/** Runs the report; returns whether every target was met. */
export async function throughputReport(serverUrl: string, log: (line: string) => void = console.log): Promise<boolean> {
  log(
    `Throughput (autocannon, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s, two worker processes each):`,
  );
  log("  seeding 100k and 1k templates…");
  const large = await createDatabase(serverUrl, 100_000);
  const small = await createDatabase(serverUrl, 1_000);
  const build = appBuild(log);
  const floor = buildCopy(path.join(ROOT, "bench/next-floor"), "bench-next-floor-", log);
  const servers: Server[] = [];
  try {
    const cursorKey = randomBytes(32).toString("hex");
    // Ports nothing else listens on: a server already there (a test run's) would answer in its place.
    const PORTS = {
      app: await freePort(),
      appSmall: await freePort(),
      routed: await freePort(),
      bare: await freePort(),
      floor: await freePort(),
    };
    // Every server with two worker processes, what `npm start` runs on this 2-core machine
    // (WEB_CONCURRENCY defaults to the CPU count): the app as it serves the API (the fast path,
    // lib/server/api-fast-path.cjs), the same build routing the API through Next (API_FAST_PATH=0),
    // the bare server and the minimal Next app (both under bench/cluster.mjs).
    const app = await startApp(build.dir, PORTS.app, large.url, 2, process.env.BENCH_CPU_PROF);
    servers.push(app);
    const appSmall = await startApp(build.dir, PORTS.appSmall, small.url, 2);
    servers.push(appSmall);
    const routed = await startApp(build.dir, PORTS.routed, large.url, 2, undefined, { API_FAST_PATH: "0" });
    servers.push(routed);
    // The bare server answers templates with the app's own presenter: the JSON its database writes.
    const bareEnv = {
      DATABASE_URL: large.url,
      DATABASE_POOL_SIZE: String(loadConfig({}).databasePoolSize),
      CURSOR_KEY: cursorKey,
      TEMPLATE_JSON_SQL: new PgDialect().sqlToQuery(templateJson).sql,
    };
    const twoWorkers = [path.join(ROOT, "bench/cluster.mjs")];
    const bareServer = await startProcess(
      "bare",
      PORTS.bare,
      [...twoWorkers, path.join(ROOT, "bench/bare-server.mjs")],
      ROOT,
      bareEnv,
      "/healthz",
    );
    servers.push(bareServer);
    const floorEnv = { NODE_ENV: "production", HOSTNAME: "127.0.0.1" };
    const floorServer = await startProcess(
      "next floor",
      PORTS.floor,
      [...twoWorkers, path.join(floor.dir, ".next", "standalone", "server.js")],
      floor.dir,
      floorEnv,
      "/ok",
    );
    servers.push(floorServer);
    const base = (port: number) => `http://127.0.0.1:${port}`;
    const listPath = "/ext/svc/me/templates?tag=tag3&limit=50";
    const templatePath = "/ext/svc/me/templates/t000123";
    const { resolvePath, templateTag, resolveTag } = await pollerReads(base(PORTS.app), large.token, templatePath);
    const reads: Array<[string, string]> = [
      ["me", "/ext/svc/me"],
      ["template", templatePath],
      ["policy", resolvePath],
      ["list", listPath],
    ];
    const on = (server: Server, prefix: string, token = large.token) =>
      reads.map(([label, path]): Target => ({ label: `${prefix}${label}`, url: `${base(server.port)}${path}`, token, server }));
    const targets: Target[] = [
      { label: "next floor", url: `${base(PORTS.floor)}/ok`, server: floorServer },
      ...on(app, ""),
      ...on(bareServer, "bare "),
      ...on(routed, "via Next "),
      { label: "list 1k", url: `${base(PORTS.appSmall)}${listPath}`, token: small.token, server: appSmall },
      { label: "template 304", url: `${base(PORTS.app)}${templatePath}`, token: large.token, held: templateTag, server: app },
      { label: "policy 304", url: `${base(PORTS.app)}${resolvePath}`, token: large.token, held: resolveTag, server: app },
    ];
    const { rate, cpu } = await rounds(targets, log);
    // CPU time per request, by whom: req/s on a shared 2-core machine depends on the load
    // generator and PostgreSQL too; this says what each request cost each of them. PostgreSQL's
    // column counts every postgres process of the machine: meaningful on an otherwise idle server.
    log(`  ${"".padEnd(18)} ${"req/s".padStart(6)}   CPU µs per request: server, PostgreSQL, load generator`);
    for (const [label, value] of rate) {
      const c = cpu.get(label)!;
      log(
        `  ${label.padEnd(18)} ${value.toFixed(0).padStart(6)}   ${[c.server, c.postgres, c.loadGenerator].map(formatMicros).join(", ")}`,
      );
    }
    const ratio = (read: string, other: string) => rate.get(read)! / rate.get(other)!;
    const cpuRatio = (read: string, other: string) => cpu.get(read)!.server / cpu.get(other)!.server;
    // Each read beside the floors and beside itself routed through Next: req/s and server CPU per request.
    log(`  ${"".padEnd(24)} req/s ratio, server CPU per request ratio`);
    for (const [read] of reads) {
      for (const other of [`bare ${read}`, "next floor", `via Next ${read}`]) {
        log(`  ${`${read} / ${other}`.padEnd(24)} ${ratio(read, other).toFixed(2)}×, ${cpuRatio(read, other).toFixed(2)}×`);
      }
    }
    // The 304 runs the same read and digests the same JSON (to compare tags); it saves the body.
    const conditional = ["template", "policy"].map((read) => ({
      what: `conditional GET of a ${read} answered 304: server CPU / full GET's`,
      cpuRatio: cpuRatio(`${read} 304`, read),
    }));
    // The targets of issue 39, two workers each.
    const checks = [
      ...["me", "template", "policy"].flatMap((read) => [
        { what: `GET ${read}: req/s / bare server's`, ratio: ratio(read, `bare ${read}`), target: 0.5, atLeast: true },
        { what: `GET ${read}: server CPU per request / bare server's`, ratio: cpuRatio(read, `bare ${read}`), target: 2, atLeast: false },
      ]),
      { what: "list page of 50 with a tag: req/s / bare server's", ratio: ratio("list", "bare list"), target: 0.8, atLeast: true },
      { what: "filtered page: throughput at 100k rows / at 1k rows", ratio: ratio("list", "list 1k"), target: 0.8, atLeast: true },
      ...conditional.map((c) => ({ what: c.what, ratio: c.cpuRatio, target: 1, atLeast: false })),
    ];
    const met = (check: (typeof checks)[number]) => (check.atLeast ? check.ratio >= check.target : check.ratio <= check.target);
    for (const check of checks) {
      const target = `(target ${check.atLeast ? "≥" : "≤"} ${check.target})`;
      log(`  ${check.what.padEnd(60)} ${check.ratio.toFixed(2)}×  ${target}  ${met(check) ? "met" : "NOT MET"}`);
    }
    return checks.every(met);
  } finally {
    for (const server of servers.reverse()) await server.stop();
    build.cleanup();
    floor.cleanup();
    await large.drop();
    await small.drop();
  }
}

/**
 * What a poller reads: the template, and the policy of a bank made from it (created here), with
 * the ETag of each, which the 304 targets send as If-None-Match.
 */
async function pollerReads(app: string, token: string, templatePath: string) {
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${app}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const tag = response.headers.get("etag");
    if (!response.ok || !tag) throw new Error(`${method} ${path}: ${response.status} ${await response.text()} (ETag ${tag})`);
    return tag;
  };
  const bankId = "bench:polled";
  const policyPath = `/ext/svc/banks/${bankId}/policy`;
  await send("POST", "/ext/svc/banks", { bank_id: bankId, template: `personal/${templatePath.split("/").at(-1)}` });
  const document = {
    version: "2026-03-24",
    default_strategy: "balanced",
    strategy_overrides: Array.from({ length: 6 }, (_, i) => ({ scope: "channel", value: `team-${i}`, strategy: "thorough" })),
    public_access: { default: { actions: ["bank:recall"], recall_budget: "low", recall_max_tokens: 2048 } },
  };
  await send("PUT", policyPath, { document });
  // What a gateway asks for every message it routes.
  const resolvePath = `${policyPath}/resolve?provider=slack&channel=team-3`;
  return { resolvePath, templateTag: await send("GET", templatePath), resolveTag: await send("GET", resolvePath) };
}

/** CPU time in clock ticks: of a server's process tree, of every PostgreSQL process, and of this process (the load generator). */
interface CpuTime {
  server: number;
  postgres: number;
  loadGenerator: number;
}

// Linux's /proc; elsewhere the CPU columns read 0.
const CLOCK_TICKS_PER_SECOND = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;

/** user + system ticks of one process (all its threads), 0 when it is gone. */
function processTicks(pid: number | string): number {
  try {
    // The command may hold spaces: the fields start after its closing parenthesis (utime, stime are 14 and 15).
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The process and its descendants (a cluster primary and its workers). */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      children = children.concat(readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number));
    }
  } catch {
    return [pid];
  }
  return [pid, ...children.flatMap(processTree)];
}

function postgresTicks(): number {
  let ticks = 0;
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres") ticks += processTicks(entry);
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    return 0;
  }
  return ticks;
}

function cpuTime(serverPid: number): CpuTime {
  const self = process.cpuUsage();
  return {
    server: processTree(serverPid).reduce((sum, pid) => sum + processTicks(pid), 0),
    postgres: postgresTicks(),
    loadGenerator: ((self.user + self.system) / 1e6) * CLOCK_TICKS_PER_SECOND,
  };
}

function cpuSince(before: CpuTime, after: CpuTime): CpuTime {
  return {
    server: after.server - before.server,
    postgres: after.postgres - before.postgres,
    loadGenerator: after.loadGenerator - before.loadGenerator,
  };
}

/** CPU microseconds per request over the samples. */
function perRequest(samples: Sample[]): CpuTime {
  const requests = samples.reduce((sum, s) => sum + s.requests, 0) || 1;
  const micros = (pick: (c: CpuTime) => number) =>
    (samples.reduce((sum, s) => sum + pick(s.cpu), 0) / CLOCK_TICKS_PER_SECOND / requests) * 1e6;
  return { server: micros((c) => c.server), postgres: micros((c) => c.postgres), loadGenerator: micros((c) => c.loadGenerator) };
}

const formatMicros = (micros: number) => `${micros.toFixed(0)} µs`;
