import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemTypeUri } from "@/lib/contracts/problem-types";
import { as, type Client, useTestApp } from "./support/app";
import { runCli } from "./support/cli-process";
import { type ServedApp, serveApp } from "./support/http-app";

// The CLI's login never needs the key on the command line (CONTRACT §18 keys, issue 22), and
// `api-keys create` takes the key's lifetime and scope. The real bin, over HTTP.
const t = useTestApp();
const DAY_MS = 86_400_000;

let app: ServedApp;
let scratch: string;
let member: Client;

function cli(args: string[], { configDir, input = "" }: { configDir: string; input?: string }) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", BANK_TEMPLATES_CONFIG_DIR: configDir };
  delete env.BANK_TEMPLATES_URL;
  delete env.BANK_TEMPLATES_API_KEY;
  return runCli(args, env, input);
}

beforeAll(async () => {
  app = await serveApp();
  scratch = await mkdtemp(path.join(tmpdir(), "bank-templates-cli-keys-"));
  member = await t.user("key-maker");
});

afterAll(async () => {
  await app?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const WARNING = /visible in the process list/;

describe("login", () => {
  it("reads the key from the first line of stdin when it is not a terminal, without a warning", async () => {
    const configDir = path.join(scratch, "stdin");
    const run = await cli(["login", "--url", app.url], { configDir, input: `${member.token}\nignored\n` });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(WARNING);
    expect(JSON.parse(await readFile(path.join(configDir, "config.json"), "utf8"))).toEqual({ url: app.url, api_key: member.token });
  });

  it("still takes --key, warning on stderr that the key is visible in the process list", async () => {
    const configDir = path.join(scratch, "flag");
    const run = await cli(["login", "--url", app.url, "--key", member.token!], { configDir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(WARNING);
    expect(run.stdout + run.stderr).not.toContain(member.token);
  });
});

describe("api-keys", () => {
  let configDir: string;
  beforeAll(async () => {
    configDir = path.join(scratch, "keys");
    const login = await cli(["login", "--url", app.url], { configDir, input: `${member.token}\n` });
    expect(login.code, login.stderr).toBe(0);
  });

  it("create --expires-in-days --read-only makes a read key that expires then; list shows it", async () => {
    const before = Date.now();
    const run = await cli(["--json", "api-keys", "create", "--description", "reader", "--expires-in-days", "30", "--read-only"], {
      configDir,
    });
    expect(run.code, run.stderr).toBe(0);
    const created = JSON.parse(run.stdout);
    expect(created.scope).toBe("read");
    expect(Date.parse(created.expires_at)).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 5_000);
    expect(Date.parse(created.expires_at)).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS + 5_000);
    expect((await as(created.token).get("/ext/svc/me")).status).toBe(200);
    expect((await as(created.token).post("/ext/svc/me/api-keys", {})).body.type).toBe(problemTypeUri("key-read-only"));

    const listed = await cli(["--json", "api-keys", "list"], { configDir });
    expect(JSON.parse(listed.stdout).find((k: { id: string }) => k.id === created.id)).toMatchObject({
      scope: "read",
      expires_at: created.expires_at,
    });
    const table = await cli(["api-keys", "list"], { configDir });
    expect(table.stdout).toMatch(new RegExp(`${created.id}\\s+\\S+\\s+read\\s+${created.expires_at}`));
  });

  it("create without options makes a write key that never expires, for a service account too", async () => {
    expect((await member.post("/ext/svc/me/service-accounts", { id: "cli-bot" })).status).toBe(201);
    const run = await cli(["--json", "api-keys", "create", "--service-account", "cli-bot"], { configDir });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ scope: "write", expires_at: null });
    const me = await as(JSON.parse(run.stdout).token).get("/ext/svc/me");
    expect(me.body).toMatchObject({ principal_type: "service_account", principal_id: "cli-bot" });
  });

  it("passes an out-of-range lifetime to the server (exit 1, 422) and refuses a non-number (exit 2)", async () => {
    const outOfRange = await cli(["--json", "api-keys", "create", "--expires-in-days", "366"], { configDir });
    expect(outOfRange.code).toBe(1);
    expect(JSON.parse(outOfRange.stdout)).toMatchObject({ status: 422, errors: [expect.objectContaining({ path: "expires_in_days" })] });
    const notANumber = await cli(["api-keys", "create", "--expires-in-days", "soon"], { configDir });
    expect(notANumber.code).toBe(2);
    expect(notANumber.stderr).toContain("--expires-in-days");
  });

  it("revoke removes a key", async () => {
    const created = JSON.parse((await cli(["--json", "api-keys", "create"], { configDir })).stdout);
    const run = await cli(["api-keys", "revoke", created.id], { configDir });
    expect(run.code, run.stderr).toBe(0);
    expect((await as(created.token).get("/ext/svc/me")).status).toBe(401);
  });
});
