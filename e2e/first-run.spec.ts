import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { pageHeading, signIn } from "./support/console";
import { E2E_PORT } from "./support/env";
import { expect, test } from "./support/fixtures";
import { ServerProcess } from "./support/server-process";

// A newcomer's first run, with the commands the README and docs/operations.md give, read from
// those files: whoever follows them gets into the console on a fresh data folder. The server is
// started as `npm start` starts it (scripts/start.mjs), on a port and data folder of the test's
// own instead of the docs' 3000/3001 and ./.data or ./my-data.

const ROOT = path.join(__dirname, "..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** The lines of a markdown file's fenced `sh` blocks. */
const shellLines = (markdown: string) =>
  [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) => block[1]!.split("\n").filter((line) => line.trim() !== ""));

/**
 * The variables a command line sets for `npm start`, as bash reads them after running the lines
 * before it (`export ADMIN=$(openssl rand -hex 32)`): the line runs with `npm start` replaced by
 * a program that prints its environment.
 */
function startEnvironment(before: string[], startLine: string): Record<string, string> {
  expect(startLine.endsWith(" npm start")).toBe(true);
  const printEnv = `${process.execPath} -e 'process.stdout.write(JSON.stringify(process.env))'`;
  const script = [...before, `${startLine.slice(0, -" npm start".length)} ${printEnv}`].join("\n");
  const all = JSON.parse(execFileSync("bash", ["-c", script]).toString()) as Record<string, string>;
  // Only what the line sets (bash adds PWD, SHLVL, _, and the exported variables of the lines before).
  const names = [...startLine.matchAll(/(?:^|\s)([A-Z_]+)=/g)].map((m) => m[1]!);
  return Object.fromEntries(names.map((name) => [name, all[name]!]));
}

/**
 * Runs `use` with a server on a fresh data folder of its own, started with `env` as `npm start`
 * would start it; the page leaves it before it stops (an open console would fail to reach it).
 */
async function withFreshServer(page: Page, port: number, env: Record<string, string>, use: (server: ServerProcess) => Promise<void>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bank-templates-first-run-"));
  const server = new ServerProcess(port, { ...env, DATA_DIR: dataDir, PORT: String(port) });
  try {
    await server.start();
    await use(server);
  } finally {
    await page.goto("about:blank");
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test("`npm ci && npm start` from the README: the start prints admin's password, and it signs in", async ({ page }) => {
  test.setTimeout(180_000);
  expect(shellLines(read("README.md"))).toContain("npm ci && npm start");
  expect(JSON.parse(read("package.json")).scripts.start).toBe("node scripts/start.mjs");
  await withFreshServer(page, E2E_PORT + 20, {}, async (server) => {
    const password = server.messages.match(/Its password, shown only this once: (\S+)/)?.[1];
    expect(password, `the start's output:\n${server.log}`).toBeTruthy();
    expect(server.log).not.toContain("telemetry");

    await page.goto(`${server.baseUrl}/`);
    await page.getByRole("link", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await signIn(page, "admin", password!);
    await expect(pageHeading(page, "Home")).toBeVisible();
  });
});

test("the docs' start with a token and a password: admin signs in with that password and calls the API with the token", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const lines = shellLines(read("docs/operations.md"));
  const startLine = lines.find((line) => line.includes("BOOTSTRAP_ADMIN_TOKEN") && line.endsWith(" npm start"));
  expect(startLine, "docs/operations.md starts the server with BOOTSTRAP_ADMIN_TOKEN").toBeDefined();
  const env = startEnvironment(
    lines.slice(0, lines.indexOf(startLine!)).filter((line) => line.startsWith("export ")),
    startLine!,
  );
  expect(env.BOOTSTRAP_ADMIN_TOKEN, "the token the docs' export line makes").toMatch(/^[0-9a-f]{64}$/);
  expect(env.BOOTSTRAP_ADMIN_PASSWORD).toBeTruthy();
  await withFreshServer(page, E2E_PORT + 21, env, async (server) => {
    expect(server.messages).toContain(`User "admin" signs in to the console with the password BOOTSTRAP_ADMIN_PASSWORD gives.`);
    const me = await request.get(`${server.baseUrl}/ext/svc/me`, { headers: { authorization: `Bearer ${env.BOOTSTRAP_ADMIN_TOKEN}` } });
    expect(me.status()).toBe(200);
    await page.goto(`${server.baseUrl}/signin`);
    await signIn(page, "admin", env.BOOTSTRAP_ADMIN_PASSWORD!);
    await expect(pageHeading(page, "Home")).toBeVisible();
  });
});

test("a token alone: the start says admin has no console password and which setting gives one; with it, admin signs in", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const token = "first-run-token-only-0123456789abcdef0123456789abcd";
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bank-templates-first-run-"));
  const port = E2E_PORT + 22;
  const tokenOnly = new ServerProcess(port, { DATA_DIR: dataDir, BOOTSTRAP_ADMIN_TOKEN: token });
  const withPassword = new ServerProcess(port, {
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_TOKEN: token,
    BOOTSTRAP_ADMIN_PASSWORD: "now a console password",
  });
  try {
    await tokenOnly.start();
    expect(tokenOnly.messages).toContain(`User "admin" has no console password yet`);
    expect(tokenOnly.messages).toContain("BOOTSTRAP_ADMIN_PASSWORD");
    await tokenOnly.stop();

    // The setting the start named, on the same data folder.
    await withPassword.start();
    await page.goto(`${withPassword.baseUrl}/signin`);
    await signIn(page, "admin", "now a console password");
    await expect(pageHeading(page, "Home")).toBeVisible();
  } finally {
    await page.goto("about:blank");
    await tokenOnly.stop();
    await withPassword.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
