import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import postgres from "postgres";
import { CLEARED_ENV } from "./env";

const ROOT = path.join(__dirname, "..", "..");

/** How a server process is started: the program, its arguments, folder and whole environment. */
export interface Launch {
  program: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * A production server on its own port: by default started as `npm start` does
 * (scripts/start.mjs), or as `launch` says (the Docker image's CMD, in e2e/deployment.spec.ts).
 */
export class ServerProcess {
  private child: ChildProcess | null = null;
  private output = "";
  readonly launch: Launch;

  constructor(
    readonly port: number,
    env: Record<string, string>,
    launch?: Launch,
  ) {
    this.launch = launch ?? {
      program: process.execPath,
      args: [path.join(ROOT, "scripts", "start.mjs")],
      cwd: ROOT,
      env: { ...process.env, ...CLEARED_ENV, ...env, PORT: String(port) },
    };
  }

  get baseUrl() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The process started (with `npm start`'s launcher, the launcher: the server is its child). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** What it wrote to stdout and stderr since it last started. */
  get log(): string {
    return this.output;
  }

  /** The message (`msg`) of each JSON line it wrote since it last started, one a line: what a person reads in its log. */
  get messages(): string {
    return this.output
      .split("\n")
      .flatMap((line) => {
        try {
          const { msg } = JSON.parse(line) as { msg?: unknown };
          return typeof msg === "string" ? [msg] : [];
        } catch {
          return [];
        }
      })
      .join("\n");
  }

  /** Starts it and waits until /readyz answers 200 (the database is up and migrated). */
  async start(timeoutMs = 120_000): Promise<void> {
    this.output = "";
    const { program, args, cwd, env } = this.launch;
    const child = spawn(program, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    child.stdout!.on("data", (chunk) => (this.output += chunk));
    child.stderr!.on("data", (chunk) => (this.output += chunk));
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${this.output}`);
      const ready = await fetch(`${this.baseUrl}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`server not ready after ${timeoutMs} ms:\n${this.output}`);
  }

  /** Stops it the way a service manager would (SIGTERM) and waits for the process to end. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
    this.child = null;
  }
}

/** Where tests of several server processes create their database: TEST_DATABASE_URL (as `.ci/run` exports), else the local server. */
const POSTGRES_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";

export interface ScratchDatabase {
  /** The DATABASE_URL of the new, empty database. */
  url: string;
  /** Drops it, connections and all. */
  drop(): Promise<void>;
}

/** A new empty database `<prefix>_<random>` on that server, for servers that share it. */
export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** Signs in at a server's credentials endpoint as the console's form does; the callback's answer (200 or 401/429). */
export async function signInOver(
  request: APIRequestContext,
  base: string,
  username: string,
  password: string,
  headers: Record<string, string> = {},
) {
  const { csrfToken } = await (await request.get(`${base}/api/auth/csrf`, { headers })).json();
  return request.post(`${base}/api/auth/callback/credentials`, {
    form: { csrfToken, username, password, json: "true", callbackUrl: `${base}/sources` },
    headers,
    maxRedirects: 0,
  });
}
