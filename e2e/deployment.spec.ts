import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Copy, DockerfileParser, Env, From, type Instruction } from "dockerfile-ast";
import { parse as parseYaml } from "yaml";
import { buildIfChanged } from "../scripts/build-if-changed.mjs";
import { createScratchDatabase, type ScratchDatabase, ServerProcess, signInOver } from "./support/server-process";

// The deployment files, held to what they promise without a Docker daemon: the Dockerfile and
// compose.yaml are parsed and checked, then the image's runtime stage is laid out on disk as
// the final stage's COPY lines say, from this checkout's production build, and its CMD runs
// with its ENV as two replicas on one fresh PostgreSQL database.
// Needs a PostgreSQL server where it may create a database: TEST_DATABASE_URL, else the local one.

const ROOT = path.join(__dirname, "..");
const REPLICA_PORTS = [3270, 3271] as const;
const EMBEDDED_PORT = 3272;
const ADMIN_TOKEN = "deployment-admin-token-0123456789abcdef0123456789ab";
const bearer = { authorization: `Bearer ${ADMIN_TOKEN}` };

// ---------------------------------------------------------------------------------------------
// The Dockerfile, as stages of instructions

interface Stage {
  name: string | null;
  instructions: Instruction[];
}

function dockerfileStages(): Stage[] {
  const dockerfile = DockerfileParser.parse(readFileSync(path.join(ROOT, "Dockerfile"), "utf8"));
  const stages: Stage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction instanceof From) {
      stages.push({ name: instruction.getBuildStage(), instructions: [instruction] });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

const ofKind = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.getKeyword() === keyword);
const args = (instruction: Instruction) => instruction.getArguments().map((a) => a.getValue());
const copies = (stage: Stage) => stage.instructions.filter((i): i is Copy => i instanceof Copy);
const fromFlag = (copy: Copy) => copy.getFromFlag()?.getValue() ?? null;

/** An instruction's exec form (`["node", "server.js"]`), or null for the shell form. */
function execForm(text: string): string[] | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith("[")) return null;
  const parsed: unknown = JSON.parse(trimmed);
  return Array.isArray(parsed) && parsed.every((p) => typeof p === "string") ? parsed : null;
}

/** The working directory in force at an instruction of a stage, or at its end (WORKDIR is relative to the previous one). */
function workdirAt(stage: Stage, instruction: Instruction | null): string {
  let dir = "/";
  for (const i of stage.instructions) {
    if (i === instruction) break;
    if (i.getKeyword() === "WORKDIR") dir = path.posix.resolve(dir, args(i)[0]!);
  }
  return dir;
}

/** ENV of a stage, in order (later lines win). */
function stageEnv(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const i of stage.instructions) {
    if (i instanceof Env) for (const p of i.getProperties()) env[p.getName()] = p.getUnescapedValue() ?? "";
  }
  return env;
}

/**
 * Where this checkout stands in for a build stage's filesystem: the directory the stage copies
 * the build context into (`COPY . /app`), under which its RUN lines (npm ci, next build) wrote
 * what they wrote here too.
 */
function contextDirOf(stage: Stage): string {
  const copy = copies(stage).find((c) => fromFlag(c) === null && args(c).length === 2 && args(c)[0] === ".");
  if (!copy) throw new Error(`stage ${stage.name} does not copy the build context (COPY . <dir>)`);
  return path.posix.resolve(workdirAt(stage, copy), args(copy)[1]!);
}

/** Whether a RUN of the stage makes `dir` (`mkdir -p public`): the image has it although this checkout may not. */
function madeByRun(stage: Stage, dir: string): boolean {
  return ofKind(stage, "RUN").some((run) => {
    const words = args(run);
    const base = workdirAt(stage, run);
    return words.includes("mkdir") && words.some((w) => path.posix.resolve(base, w) === dir);
  });
}

/**
 * Lays out the final stage's files under `rootfs` as its `COPY --from=<stage>` lines describe,
 * reading each source stage's files from this checkout; returns the stage's WORKDIR there.
 */
function assembleRuntime(stages: Stage[], rootfs: string): string {
  const runtime = stages.at(-1)!;
  for (const copy of copies(runtime)) {
    const from = fromFlag(copy);
    const source = stages.find((s) => s.name === from);
    if (!source) throw new Error(`${copy.toString()}: the runtime stage may copy only from an earlier stage, not the build context`);
    const contextDir = contextDirOf(source);
    const [dest, ...sources] = args(copy).reverse();
    const destination = path.posix.resolve(workdirAt(runtime, copy), dest!);
    for (const src of sources.reverse()) {
      // With --from, a relative source is relative to the root of that stage, not its WORKDIR.
      const inStage = path.posix.resolve("/", src);
      const relative = path.posix.relative(contextDir, inStage);
      if (relative.startsWith("..")) throw new Error(`${copy.toString()}: ${inStage} is outside ${contextDir} of stage ${from}`);
      const local = path.join(ROOT, relative);
      const target = path.join(rootfs, destination);
      if (!existsSync(local)) {
        if (!madeByRun(source, inStage)) throw new Error(`${copy.toString()}: ${relative} does not exist (is the build current?)`);
        mkdirSync(target, { recursive: true });
      } else if (statSync(local).isDirectory()) {
        // Docker copies a directory's contents into the destination directory.
        cpSync(local, target, { recursive: true });
      } else {
        const into = dest!.endsWith("/") || (existsSync(target) && statSync(target).isDirectory());
        mkdirSync(into ? target : path.dirname(target), { recursive: true });
        cpSync(local, into ? path.join(target, path.basename(local)) : target);
      }
    }
  }
  return path.join(rootfs, workdirAt(runtime, null));
}

// ---------------------------------------------------------------------------------------------
// The image's CMD as a process

/** Runs an exec-form command as the container would: `node` is this Node.js. */
function command(argv: string[]): [string, string[]] {
  const [program, ...rest] = argv;
  return [program === "node" ? process.execPath : program!, rest];
}

/** The image's CMD run as the container would run it: its working directory, only its environment. */
class Replica extends ServerProcess {
  constructor(port: number, cmd: string[], cwd: string, env: Record<string, string>) {
    const [program, args] = command(cmd);
    super(port, env, { program, args, cwd, env: env as NodeJS.ProcessEnv });
  }

  /** Runs the image's HEALTHCHECK command beside this replica, with its environment; the exit status. */
  healthcheck(argv: string[]): number | null {
    const [program, rest] = command(argv);
    return spawnSync(program, rest, { cwd: this.launch.cwd, env: this.launch.env, timeout: 10_000 }).status;
  }
}

/** The container's environment: the final stage's ENV, PATH for `node`, and what the test sets. */
function containerEnv(imageEnv: Record<string, string>, overrides: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", ...imageEnv, LOG_LEVEL: "warn", ...overrides };
}

// ---------------------------------------------------------------------------------------------

test.describe("Dockerfile", () => {
  test("builds in stages and runs the standalone server as an unprivileged user, checked on /readyz", () => {
    const stages = dockerfileStages();
    expect(stages.length, "stages").toBeGreaterThanOrEqual(2);
    const runtime = stages.at(-1)!;
    expect(copies(runtime).length).toBeGreaterThan(0);
    const earlier = new Set(stages.slice(0, -1).map((s) => s.name));
    for (const copy of copies(runtime)) expect(earlier.has(fromFlag(copy)), copy.toString()).toBe(true);
    // The build happens before the runtime stage: npm ci and next build are nowhere in it.
    for (const run of ofKind(runtime, "RUN")) expect(run.toString()).not.toMatch(/npm (ci|install)|next build/);

    const users = ofKind(runtime, "USER");
    expect(users.length, "USER in the final stage").toBeGreaterThan(0);
    const user = args(users.at(-1)!)[0]!.split(":")[0];
    expect(["root", "0"]).not.toContain(user);

    const env = stageEnv(runtime);
    expect(env).toMatchObject({ NODE_ENV: "production", PORT: "3000", HOSTNAME: "0.0.0.0" });

    const healthchecks = ofKind(runtime, "HEALTHCHECK");
    expect(healthchecks).toHaveLength(1);
    const check = healthchecks[0]!.getArgumentsContent() ?? "";
    expect(check).toMatch(/^CMD\s/);
    expect(check).toContain("/readyz");

    const cmds = ofKind(runtime, "CMD");
    expect(cmds).toHaveLength(1);
    expect(execForm(cmds[0]!.getArgumentsContent() ?? "")).toEqual(["node", "server.js"]);
  });
});

/** The parts of a compose service this file reads. */
interface ComposeService {
  image?: string;
  build?: string | { context?: string };
  deploy?: { replicas?: number };
  depends_on?: string[] | Record<string, { condition?: string }>;
  environment?: Record<string, string> | string[];
  ports?: unknown[];
  volumes?: string[];
  healthcheck?: { test?: unknown };
  configs?: { source: string }[];
}

/** depends_on as service → condition (the list form means service_started). */
function dependencies(service: ComposeService): Record<string, string | undefined> {
  const deps = service.depends_on ?? {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((name) => [name, "service_started"]));
  return Object.fromEntries(Object.entries(deps).map(([name, d]) => [name, d.condition]));
}

function environment(service: ComposeService): Record<string, string> {
  const env = service.environment ?? {};
  if (!Array.isArray(env)) return env;
  return Object.fromEntries(env.map((line) => [line.split("=")[0]!, line.slice(line.indexOf("=") + 1)]));
}

test.describe("compose.yaml", () => {
  test("runs two app processes on one healthy PostgreSQL behind one published port", () => {
    const compose = parseYaml(readFileSync(path.join(ROOT, "compose.yaml"), "utf8")) as {
      services: Record<string, ComposeService>;
      volumes?: Record<string, unknown>;
      configs?: Record<string, { content?: string }>;
    };
    const services = Object.entries(compose.services);

    const databases = services.filter(([, s]) => /^postgres(:|$)/.test(s.image ?? ""));
    expect(databases.map(([name]) => name)).toHaveLength(1);
    const [dbName, db] = databases[0]!;
    expect(db.healthcheck?.test, "postgres health check").toBeTruthy();
    const dataVolume = (db.volumes ?? []).find((v) => v.endsWith(":/var/lib/postgresql/data"));
    expect(dataVolume, "a volume for the database files").toBeTruthy();
    expect(Object.keys(compose.volumes ?? {})).toContain(dataVolume!.split(":")[0]);

    // The app: every service built from this directory, whose Dockerfile is the one above.
    const contextOf = (s: ComposeService) => (typeof s.build === "string" ? s.build : (s.build?.context ?? "."));
    const apps = services.filter(([, s]) => s.build !== undefined && path.posix.normalize(contextOf(s)) === ".");
    const replicas = apps.reduce((n, [, s]) => n + (s.deploy?.replicas ?? 1), 0);
    expect(replicas, "app replicas").toBe(2);

    const imagePort = stageEnv(dockerfileStages().at(-1)!).PORT!;
    for (const [name, app] of apps) {
      expect(dependencies(app)[dbName], `${name} waits for a healthy ${dbName}`).toBe("service_healthy");
      expect(app.ports, `${name} publishes no port of its own`).toBeUndefined();
      const env = environment(app);
      // One database for all: its service name as host.
      expect(/@([^:/@]+)(?::\d+)?\//.exec(env.DATABASE_URL ?? "")?.[1], `${name} DATABASE_URL host`).toBe(dbName);
      // Secrets come from .env or the shell and must be set: ${NAME:?message}.
      for (const secret of ["SECRET_KEY", "BOOTSTRAP_ADMIN_PASSWORD"]) {
        expect(env[secret], `${name} ${secret}`).toMatch(new RegExp(`^\\$\\{${secret}:\\?`));
      }
      expect(String(env.PORT ?? imagePort)).toBe(imagePort);
    }

    const published = services.flatMap(([name, s]) => (s.ports ?? []).map(() => name));
    expect(published, "published ports").toHaveLength(1);
    const proxyName = published[0]!;
    const proxy = compose.services[proxyName]!;
    // The one published port reaches every app process, on the port the image listens on.
    const proxyConfig = [JSON.stringify(proxy), ...(proxy.configs ?? []).map((c) => compose.configs?.[c.source]?.content ?? "")].join("\n");
    for (const [name] of apps) {
      expect(proxyConfig, `${proxyName} forwards to ${name}`).toContain(`${name}:${imagePort}`);
      expect(Object.keys(dependencies(proxy)), `${proxyName} starts after ${name}`).toContain(name);
    }
  });
});

test.describe("the runtime stage, assembled from this build", () => {
  test.setTimeout(300_000);

  let database: ScratchDatabase | null = null;
  let tmp = "";
  let workdir = "";
  let cmd: string[] = [];
  let healthcheck: string[] = [];
  let imageEnv: Record<string, string> = {};
  const started: Replica[] = [];

  test.beforeAll(async () => {
    // The webServer (npm start) has built the current sources already: this builds only if they changed since.
    expect(buildIfChanged(ROOT, { stdio: ["ignore", "ignore", "inherit"] }), "next build").toBe(0);
    const stages = dockerfileStages();
    const runtime = stages.at(-1)!;
    tmp = mkdtempSync(path.join(os.tmpdir(), "bank-templates-deploy-"));
    workdir = assembleRuntime(stages, path.join(tmp, "rootfs"));
    cmd = execForm(ofKind(runtime, "CMD")[0]!.getArgumentsContent() ?? "")!;
    healthcheck = execForm((ofKind(runtime, "HEALTHCHECK")[0]!.getArgumentsContent() ?? "").replace(/^CMD\s+/, ""))!;
    expect(healthcheck, "HEALTHCHECK in exec form").toBeTruthy();
    imageEnv = stageEnv(runtime);

    database = await createScratchDatabase("e2e_deploy");
  });

  test.afterAll(async () => {
    await Promise.all(started.map((r) => r.stop()));
    await database?.drop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test("two replicas on one PostgreSQL database: ready, healthy, and one sees what the other wrote", async ({ request }) => {
    const shared = { DATABASE_URL: database!.url, SECRET_KEY: randomBytes(32).toString("hex"), BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN };
    const [a, b] = REPLICA_PORTS.map(
      (port, i) =>
        new Replica(
          port,
          cmd,
          workdir,
          containerEnv(imageEnv, { ...shared, PORT: String(port), HOSTNAME: "127.0.0.1", DATA_DIR: path.join(tmp, `data-${i}`) }),
        ),
    ) as [Replica, Replica];
    started.push(a, b);
    // Together, as `docker compose up` starts them: both migrate the empty database at once.
    await Promise.all([a.start(), b.start()]);

    for (const replica of [a, b]) {
      expect((await request.get(`${replica.baseUrl}/readyz`)).status()).toBe(200);
      expect(replica.healthcheck(healthcheck), `HEALTHCHECK on ${replica.port}`).toBe(0);
    }

    // Written through A, read through B.
    const created = await request.post(`${a.baseUrl}/ext/svc/me/template-sources`, {
      headers: bearer,
      data: { url: "https://github.com/deployment-check/bank-templates", alias: "deployed" },
    });
    expect(created.status(), await created.text()).toBe(201);
    const listed = await request.get(`${b.baseUrl}/ext/svc/me/template-sources`, { headers: bearer });
    expect(listed.status()).toBe(200);
    expect(await listed.json()).toEqual([
      expect.objectContaining({ name: "deployed", url: "https://github.com/deployment-check/bank-templates" }),
    ]);

    // A password hashed by A's argon2 binding and checked by B's: the native module is in the image.
    const password = "deployment check password";
    expect((await request.post(`${a.baseUrl}/ext/svc/admin/users`, { headers: bearer, data: { id: "dora", password } })).status()).toBe(
      201,
    );
    expect((await signInOver(request, b.baseUrl, "dora", password)).status()).toBe(200);

    // The console's scripts come from .next/static, which the standalone output leaves out.
    const html = await (await request.get(`${b.baseUrl}/signin`)).text();
    const scripts = [...new Set(html.match(/\/_next\/static\/[^"'\s]+\.js/g) ?? [])];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect((await request.get(`${b.baseUrl}${script}`)).status(), script).toBe(200);

    // A stopped replica fails the health check; the other keeps serving the same data.
    await b.stop();
    expect(b.healthcheck(healthcheck), "HEALTHCHECK of a stopped replica").not.toBe(0);
    expect((await request.get(`${a.baseUrl}/ext/svc/me/template-sources`, { headers: bearer })).status()).toBe(200);
  });

  test("without DATABASE_URL the same files run on the embedded database", async ({ request }) => {
    const replica = new Replica(
      EMBEDDED_PORT,
      cmd,
      workdir,
      containerEnv(imageEnv, {
        PORT: String(EMBEDDED_PORT),
        HOSTNAME: "127.0.0.1",
        DATA_DIR: path.join(tmp, "embedded"),
        BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
      }),
    );
    started.push(replica);
    await replica.start();
    const me = await request.get(`${replica.baseUrl}/ext/svc/me`, { headers: bearer });
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ user_id: "admin", role: "admin" });
    await replica.stop();
  });
});
