import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";

const BIN = path.resolve(__dirname, "../../bin/bank-templates.mjs");

/** How a run of the CLI ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real bin in a child process with `env`, asynchronously (the app it talks to may be
 * served from the test's own process); `input` is written to stdin, which is closed either way,
 * so it is never a terminal. It runs outside the project folder, as an installed CLI is run.
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv, input = ""): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, cwd: os.tmpdir(), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
