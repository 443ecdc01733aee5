import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, useTestApp } from "./support/app";
import { type CliRun, runCli } from "./support/cli-process";
import { manifest } from "./support/fixtures";
import { type ServedApp, serveApp } from "./support/http-app";

// `bank-templates banks edit` (CONTRACT §21), run as users run it: the real bin in a child
// process against the app served over HTTP.
const t = useTestApp();

let app: ServedApp;
let gina: Client;
let hugo: Client;
let dir: string;

function cli(client: Client, args: string[]): Promise<CliRun> {
  return runCli(args, { ...process.env, NO_COLOR: "1", BANK_TEMPLATES_URL: app.url, BANK_TEMPLATES_API_KEY: client.token! });
}

/** `banks edit gina-1 --directive <name> --file <a file holding body>`. */
const putDirective = (name: string, body: unknown) =>
  cli(gina, ["banks", "edit", "gina-1", "--directive", name, "--file", file(`${name}.json`, body)]);

/** A JSON file holding `value`, for --file. */
function file(name: string, value: unknown): string {
  const at = path.join(dir, name);
  writeFileSync(at, typeof value === "string" ? value : JSON.stringify(value));
  return at;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "cli-bank-edit-"));
  app = await serveApp();
  gina = await t.user("gina");
  hugo = await t.user("hugo");
  expect((await gina.post("/ext/svc/me/templates", { id: "notes", name: "Notes", manifest: manifest() })).status).toBe(200);
  expect((await gina.post("/ext/svc/banks", { bank_id: "gina-1", template: "notes" })).status).toBe(200);
});

afterAll(async () => {
  await app?.close();
});

describe("bank-templates banks edit", () => {
  it("puts a directive from a file, and the bank then differs from what its template wrote", async () => {
    const run = await putDirective("Be brief", { content: "Two sentences." });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe("edited bank gina-1: directive Be brief put (the bank now differs from what its template wrote)");
    const bank = (await gina.get("/ext/svc/banks/gina-1")).body;
    expect(bank.locally_modified).toBe(true);
    expect(bank.directives.find((d: { name: string }) => d.name === "Be brief").content).toBe("Two sentences.");
  });

  it("puts a mental model and prints the bank with --json", async () => {
    const body = { name: "Risks", source_query: "What could go wrong?", max_tokens: 1024 };
    const run = await cli(gina, ["--json", "banks", "edit", "gina-1", "--mental-model", "risks", "-f", file("m.json", body)]);
    expect(run.code, run.stderr).toBe(0);
    const bank = JSON.parse(run.stdout);
    expect(bank.mental_models.find((m: { id: string }) => m.id === "risks")).toMatchObject({ id: "risks", ...body });
  });

  it("changes config fields and the name in one PATCH; null returns a field to the server's default", async () => {
    const config = file("c.json", { disposition_skepticism: 5, retain_mission: null });
    const run = await cli(gina, ["banks", "edit", "gina-1", "--config", "--file", config, "--name", "Gina's notes"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("edited bank gina-1: renamed to Gina's notes; config: disposition_skepticism, retain_mission");
    const bank = (await gina.get("/ext/svc/banks/gina-1")).body;
    expect(bank.name).toBe("Gina's notes");
    expect(bank.config).toEqual({ disposition_skepticism: 5 });
  });

  it("removes a mental model and a directive; one the bank lacks is refused (exit 1)", async () => {
    const model = await cli(gina, ["banks", "edit", "gina-1", "--remove-mental-model", "decisions"]);
    expect(model.code, model.stderr).toBe(0);
    expect(model.stdout).toContain("mental model decisions removed");
    const directive = await cli(gina, ["--json", "banks", "edit", "gina-1", "--remove-directive", "Cite sources"]);
    expect(directive.code, directive.stderr).toBe(0);
    const bank = JSON.parse(directive.stdout);
    expect(bank.mental_models.map((m: { id: string }) => m.id)).not.toContain("decisions");
    expect(bank.directives.map((d: { name: string }) => d.name)).toEqual(["Be brief"]);
    const again = await cli(gina, ["--json", "banks", "edit", "gina-1", "--remove-directive", "Cite sources"]);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 404 });
    const history = (await gina.get("/ext/svc/banks/gina-1/history")).body.entries;
    expect(history.filter((e: { kind: string }) => e.kind === "edit")).toHaveLength(5);
  });

  it("refuses an entry the bank template schema refuses (exit 1, the field named)", async () => {
    const run = await putDirective("Be brief", { content: "x", priority: "high" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("priority");
  });

  it("is a usage error (exit 2) without an edit, with two, without the file one needs, or with a file that is not an object", async () => {
    const f = file("ok.json", { content: "x" });
    const cases = [
      ["banks", "edit", "gina-1"],
      ["banks", "edit", "gina-1", "--directive", "A", "--remove-directive", "B", "--file", f],
      ["banks", "edit", "gina-1", "--mental-model", "m"],
      ["banks", "edit", "gina-1", "--remove-directive", "Be brief", "--file", f],
      ["banks", "edit", "gina-1", "--config", "--file", file("list.json", [1])],
      ["banks", "edit", "gina-1", "--config", "--file", file("broken.json", "{")],
    ];
    for (const args of cases) {
      const run = await cli(gina, args);
      expect(run.code, args.join(" ")).toBe(2);
    }
    // Nothing was written by any of them.
    expect((await gina.get("/ext/svc/banks/gina-1")).body.directives.map((d: { content: string }) => d.content)).toEqual([
      "Two sentences.",
    ]);
  });

  it("exits 4 when the caller may not edit the bank", async () => {
    const run = await cli(hugo, ["banks", "edit", "gina-1", "--remove-directive", "Be brief"]);
    expect(run.code).toBe(4);
  });
});
