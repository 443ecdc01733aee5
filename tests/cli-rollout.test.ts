import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, useTestApp } from "./support/app";
import { type CliRun, runCli } from "./support/cli-process";
import { manifest } from "./support/fixtures";
import { type ServedApp, serveApp } from "./support/http-app";

// `bank-templates banks rollout` and the provenance in `banks list|show` (CONTRACT §16), run as
// users run them: the real bin in a child process against the app served over HTTP.
const t = useTestApp();

let app: ServedApp;
let erin: Client;
let fred: Client;

function cli(client: Client, args: string[]): Promise<CliRun> {
  return runCli(args, { ...process.env, NO_COLOR: "1", BANK_TEMPLATES_URL: app.url, BANK_TEMPLATES_API_KEY: client.token! });
}

const edited = manifest({ bank: { retain_mission: "Keep decisions, their reasons and who made them.", disposition_skepticism: 3 } });

beforeAll(async () => {
  app = await serveApp();
  erin = await t.user("erin");
  fred = await t.user("fred");
  expect((await erin.post("/ext/svc/me/templates", { id: "notes", name: "Notes", manifest: manifest() })).status).toBe(200);
  for (const id of ["erin-1", "erin-2"]) expect((await erin.post("/ext/svc/banks", { bank_id: id, template: "notes" })).status).toBe(200);
  expect((await fred.post("/ext/svc/me/templates", { id: "notes", name: "Fred's", manifest: manifest() })).status).toBe(200);
  expect((await fred.post("/ext/svc/banks", { bank_id: "fred-1", template: "notes" })).status).toBe(200);
  // Version 2 of erin's template: her banks are behind.
  expect((await erin.patch("/ext/svc/me/templates/notes", { manifest: edited })).status).toBe(200);
});

afterAll(async () => {
  await app?.close();
});

describe("bank-templates banks rollout", () => {
  it("lists the banks behind a template, with the version applied", async () => {
    const list = await cli(erin, ["banks", "list", "--template", "personal/notes"]);
    expect(list.code, list.stderr).toBe(0);
    const rows = list.stdout.trim().split("\n");
    expect(rows[0]).toMatch(/^BANK\s+NAME\s+OWNER\s+LAST TEMPLATE\s+VERSION\s+APPLIED AT\s+BEHIND$/);
    expect(rows.slice(1).map((row) => row.split(/\s+/).at(-1))).toEqual(["yes", "yes"]);
    const show = await cli(erin, ["banks", "show", "erin-1"]);
    expect(show.stdout).toMatch(/last applied: personal\/notes version 1 at revision -, \S+ \(behind: version 2 is available\)/);
  });

  it("previews with --dry-run and writes nothing", async () => {
    const preview = await cli(erin, ["banks", "rollout", "notes", "--dry-run"]);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/erin-1\s+would apply/);
    expect(preview.stdout).toContain("dry run: would apply 2 of 2");
    expect((await erin.get("/ext/svc/banks/erin-1")).body.behind).toBe(true);
  });

  it("reports each bank and a summary, and exits 5 when some banks failed", async () => {
    const run = await cli(erin, ["banks", "rollout", "personal/notes", "--bank", "erin-1", "--bank", "fred-1"]);
    expect(run.code).toBe(5);
    expect(run.stdout).toMatch(/erin-1\s+applied/);
    expect(run.stdout).toMatch(/fred-1\s+failed\s+403 /);
    expect(run.stdout).toContain("applied 1 of 2, 1 failed");
    expect(run.stderr).toMatch(/^error: bank fred-1: 403 Forbidden: /m);
    // Not a terminal: no progress line.
    expect(run.stderr).not.toContain("rolling out");
  });

  it("prints the result document with --json, and exits 0 when every bank was applied", async () => {
    const run = await cli(erin, ["--json", "banks", "rollout", "notes"]);
    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout);
    // erin-1 caught up above; only erin-2 was still behind.
    expect(answer.results.map((r: { bank_id: string; applied: boolean }) => [r.bank_id, r.applied])).toEqual([["erin-2", true]]);
    const nothing = await cli(erin, ["banks", "rollout", "notes"]);
    expect(nothing).toMatchObject({ code: 0 });
    expect(nothing.stdout).toContain("nothing to roll out");
  });

  it("exits as a single failure would when every bank failed (4: not allowed)", async () => {
    const run = await cli(erin, ["--json", "banks", "rollout", "notes", "--bank", "fred-1"]);
    expect(run.code).toBe(4);
    expect(JSON.parse(run.stdout).results[0].problem.status).toBe(403);
  });

  it("names a rollback for what it is: rolling it out takes the bank back", async () => {
    expect((await erin.post("/ext/svc/me/templates/notes/rollback", { version: 1 })).status).toBe(200);
    const show = await cli(erin, ["banks", "show", "erin-1"]);
    expect(show.stdout).toMatch(
      /personal\/notes version 2 .* \(behind: version 3 restores version 1; rolling it out takes this bank back\)/,
    );
  });
});

describe("bank-templates banks rollout --merge", () => {
  it("keeps each bank's edits, fails a conflicting bank with its conflicts, and resolves them from a file", async () => {
    expect((await erin.post("/ext/svc/me/templates", { id: "merged", name: "Merged", manifest: manifest() })).status).toBe(200);
    for (const id of ["erin-kept", "erin-conflict"])
      expect((await erin.post("/ext/svc/banks", { bank_id: id, template: "merged" })).status).toBe(200);
    expect((await erin.put("/ext/svc/banks/erin-kept/directives/Mine", { content: "Mine." })).status).toBe(200);
    expect((await erin.put(`/ext/svc/banks/erin-conflict/directives/${encodeURIComponent("Be brief")}`, { content: "Ours." })).status).toBe(
      200,
    );
    const newer = manifest({ directives: [manifest().directives[0], { name: "Be brief", content: "One sentence." }] });
    expect((await erin.patch("/ext/svc/me/templates/merged", { manifest: newer })).status).toBe(200);

    const run = await cli(erin, ["banks", "rollout", "merged", "--merge"]);
    expect(run.code).toBe(5);
    expect(run.stdout).toMatch(/erin-kept\s+applied/);
    expect(run.stdout).toMatch(/erin-conflict\s+failed\s+409 .*manifest\.directives\[1\]\.content/);
    expect((await erin.get("/ext/svc/banks/erin-kept")).body.directives.map((d: { name: string }) => d.name)).toContain("Mine");

    const scratch = await mkdtemp(path.join(tmpdir(), "bank-templates-rollout-"));
    try {
      const file = path.join(scratch, "resolutions.json");
      await writeFile(file, JSON.stringify([{ path: "manifest.directives[1].content", take: "local" }]));
      const resolved = await cli(erin, ["banks", "rollout", "merged", "--merge", "--bank", "erin-conflict", "--resolutions", file]);
      expect(resolved.code, resolved.stderr).toBe(0);
      const bank = (await erin.get("/ext/svc/banks/erin-conflict")).body;
      expect(bank.directives.find((d: { name: string }) => d.name === "Be brief").content).toBe("Ours.");
      expect(bank.behind).toBe(false);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
