// The throughput report of `npm run bench` (issue 9): the app (its production server, as `npm
// start` runs it, with one worker process and with two) on PostgreSQL with 100k templates, beside
// a bare node:http + postgres.js server answering the same three reads with the same queries and
// key check (bench/bare-server.mjs), and a minimal Next.js app of the installed version with one
// route answering "ok" (bench/next-floor, served by the standalone server Next generates for it)
// as the framework's floor. autocannon, 32 connections, every target once per round, rounds
// alternating, so a noisy machine slows all of them alike.
//
// Which build: BENCH_APP_DIR (a directory with a production `.next`), else the repository's own
// `.next` when it holds a build (BUILD_ID), else a fresh build in a temporary copy of the working
// tree (node_modules hard-linked, or symlinked across file systems), removed afterwards.
// BENCH_CPU_PROF=<dir> runs the 100k app under `node --cpu-prof` and writes its profile there.
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

/** The server Next generated for the standalone build in `dir` (the floor: no server of ours). */
function nextStandalone(name: string, dir: string, port: number, readyPath: string) {
  const env = { NODE_ENV: "production", HOSTNAME: "127.0.0.1" };
  return startProcess(name, port, [path.join(dir, ".next", "standalone", "server.js")], dir, env, readyPath);
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
  log(`Throughput (autocannon, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s):`);
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
      bare: await freePort(),
      floor: await freePort(),
      appTwo: await freePort(),
    };
    const one = await startApp(build.dir, PORTS.app, large.url, 1, process.env.BENCH_CPU_PROF);
    servers.push(one);
    const oneSmall = await startApp(build.dir, PORTS.appSmall, small.url, 1);
    servers.push(oneSmall);
    const two = await startApp(build.dir, PORTS.appTwo, large.url, 2);
    servers.push(two);
    // The bare server answers templates with the app's own presenter: the JSON its database writes.
    const bareEnv = {
      DATABASE_URL: large.url,
      DATABASE_POOL_SIZE: String(loadConfig({}).databasePoolSize),
      CURSOR_KEY: cursorKey,
      TEMPLATE_JSON_SQL: new PgDialect().sqlToQuery(templateJson).sql,
    };
    const bareServer = await startProcess("bare", PORTS.bare, [path.join(ROOT, "bench/bare-server.mjs")], ROOT, bareEnv, "/healthz");
    servers.push(bareServer);
    const floorServer = await nextStandalone("next floor", floor.dir, PORTS.floor, "/ok");
    servers.push(floorServer);
    const app = `http://127.0.0.1:${PORTS.app}`;
    const appTwo = `http://127.0.0.1:${PORTS.appTwo}`;
    const bare = `http://127.0.0.1:${PORTS.bare}`;
    const listPath = "/ext/svc/me/templates?tag=tag3&limit=50";
    const templatePath = "/ext/svc/me/templates/t000123";
    const { policyPath, templateTag, policyTag } = await pollerReads(app, large.token, templatePath);
    // "×2": the same build with two worker processes, which is what `npm start` runs on this
    // 2-core machine (WEB_CONCURRENCY defaults to the CPU count); the others run one.
    const targets: Target[] = [
      { label: "next floor", url: `http://127.0.0.1:${PORTS.floor}/ok`, server: floorServer },
      { label: "healthz", url: `${app}/healthz`, server: one },
      { label: "me", url: `${app}/ext/svc/me`, token: large.token, server: one },
      { label: "template", url: `${app}${templatePath}`, token: large.token, server: one },
      { label: "list", url: `${app}${listPath}`, token: large.token, server: one },
      { label: "me ×2", url: `${appTwo}/ext/svc/me`, token: large.token, server: two },
      { label: "template ×2", url: `${appTwo}${templatePath}`, token: large.token, server: two },
      { label: "list ×2", url: `${appTwo}${listPath}`, token: large.token, server: two },
      { label: "bare list", url: `${bare}${listPath}`, token: large.token, server: bareServer },
      { label: "bare me", url: `${bare}/ext/svc/me`, token: large.token, server: bareServer },
      { label: "bare template", url: `${bare}${templatePath}`, token: large.token, server: bareServer },
      { label: "list 1k", url: `http://127.0.0.1:${PORTS.appSmall}${listPath}`, token: small.token, server: oneSmall },
      { label: "template 304", url: `${app}${templatePath}`, token: large.token, held: templateTag, server: one },
      { label: "policy", url: `${app}${policyPath}`, token: large.token, server: one },
      { label: "policy 304", url: `${app}${policyPath}`, token: large.token, held: policyTag, server: one },
    ];
    const { rate, cpu } = await rounds(targets, log);
    // CPU time per request, by whom: req/s on a shared 2-core machine depends on the load
    // generator and PostgreSQL too; this says what each request cost each of them. PostgreSQL's
    // column counts every postgres process of the machine: meaningful on an otherwise idle server.
    log(`  ${"".padEnd(14)} ${"req/s".padStart(6)}   CPU µs per request: server, PostgreSQL, load generator`);
    for (const [label, value] of rate) {
      const c = cpu.get(label)!;
      log(
        `  ${label.padEnd(14)} ${value.toFixed(0).padStart(6)}   ${[c.server, c.postgres, c.loadGenerator].map(formatMicros).join(", ")}`,
      );
    }
    // Every read as a ratio to both floors: the framework's (a minimal Next app) and the database's (bare server).
    const pairs: Array<[string, string]> = [
      ["healthz", "next floor"],
      ["me", "next floor"],
      ["template", "next floor"],
      ["list", "next floor"],
      ["me", "bare me"],
      ["template", "bare template"],
      ["list", "bare list"],
      ["me ×2", "next floor"],
      ["template ×2", "next floor"],
      ["list ×2", "bare list"],
    ];
    for (const [read, floorLabel] of pairs) {
      log(`  ${`${read} / ${floorLabel}`.padEnd(28)} ${(rate.get(read)! / rate.get(floorLabel)!).toFixed(2)}×`);
    }
    // The 304 runs the same read and digests the same JSON (to compare tags); it saves the body.
    const conditional = ["template", "policy"].map((read) => {
      const [full, notModified] = [cpu.get(read)!, cpu.get(`${read} 304`)!];
      const cpuRatio = notModified.server / full.server;
      log(
        `  ${`${read} 304 / ${read}`.padEnd(28)} ${(rate.get(`${read} 304`)! / rate.get(read)!).toFixed(2)}× req/s, ` +
          `${cpuRatio.toFixed(2)}× server CPU per request (${formatMicros(notModified.server)} vs ${formatMicros(full.server)})`,
      );
      return { what: `conditional GET of a ${read} answered 304: server CPU / full GET's`, cpuRatio };
    });
    // The targets of issue 21, for one worker process (like for like with the single-process
    // floors) and for the two `npm start` runs here.
    const ratio = (read: string, floorLabel: string) => rate.get(read)! / rate.get(floorLabel)!;
    const checks = [
      { what: "GET /me / minimal Next app's route", ratio: ratio("me", "next floor"), target: 0.85 },
      { what: "GET one template / minimal Next app's route", ratio: ratio("template", "next floor"), target: 0.85 },
      { what: "list page of 50 with a tag / bare server", ratio: ratio("list", "bare list"), target: 0.7 },
      { what: "GET /me, two workers / minimal Next app's route", ratio: ratio("me ×2", "next floor"), target: 0.85 },
      { what: "GET one template, two workers / minimal Next app", ratio: ratio("template ×2", "next floor"), target: 0.85 },
      { what: "list page, two workers / bare server", ratio: ratio("list ×2", "bare list"), target: 0.7 },
      // Throughput at 100k rows at least 0.8 of that at 1k rows.
      { what: "filtered page: throughput at 100k rows / at 1k rows", ratio: ratio("list", "list 1k"), target: 0.8 },
      { what: "GET one template: two workers / one worker", ratio: ratio("template ×2", "template"), target: 1.4 },
    ];
    for (const check of checks) {
      const met = check.ratio >= check.target;
      log(`  ${check.what.padEnd(52)} ${check.ratio.toFixed(2)}×  (target ≥ ${check.target})  ${met ? "met" : "NOT MET"}`);
    }
    for (const check of conditional) {
      log(`  ${check.what.padEnd(52)} ${check.cpuRatio.toFixed(2)}×  (target < 1)  ${check.cpuRatio < 1 ? "met" : "NOT MET"}`);
    }
    return checks.every((c) => c.ratio >= c.target) && conditional.every((c) => c.cpuRatio < 1);
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
  return { policyPath, templateTag: await send("GET", templatePath), policyTag: await send("GET", policyPath) };
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
