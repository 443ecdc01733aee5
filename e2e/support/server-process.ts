import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { CLEARED_ENV } from "./env";

const ROOT = path.join(__dirname, "..", "..");

/** A production server started as `npm start` does (scripts/start.mjs), on its own port. */
export class ServerProcess {
  private child: ChildProcess | null = null;
  private output = "";

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get baseUrl() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts it and waits until /readyz answers 200 (the database is up and migrated). */
  async start(timeoutMs = 120_000): Promise<void> {
    this.output = "";
    const child = spawn(process.execPath, [path.join(ROOT, "scripts", "start.mjs")], {
      cwd: ROOT,
      env: { ...process.env, ...CLEARED_ENV, ...this.env, PORT: String(this.port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    child.stdout!.on("data", (chunk) => (this.output += chunk));
    child.stderr!.on("data", (chunk) => (this.output += chunk));
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${this.output}`);
      const ready = await fetch(`${this.baseUrl}/readyz`).then((r) => r.ok, () => false);
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
