import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, type Client, useTestApp } from "./support/app";
import { type CliRun, runCli } from "./support/cli-process";
import { catalog, catalogEntry } from "./support/fixtures";
import { type ServedApp, serveApp } from "./support/http-app";
import { listenOnLoopback } from "./support/loopback";
import { useMarketplace } from "./support/use-marketplace";

// The command line (cli/), run as users run it: the real bin in a child process, against the app
// served over HTTP, with its own config folder.
const t = useTestApp();
const market = useMarketplace(t);
const TEMPLATE_IDS = Array.from({ length: 20 }, (_, i) => `t${String(i + 1).padStart(2, "0")}`);

let app: ServedApp;
let scratch: string;
/** The config folder of the logged-in member the tests share. */
let configDir: string;
let member: Client;
let memberKey: string;

type Run = CliRun;

interface RunOptions {
  env?: Record<string, string>;
  /** Written to stdin; stdin is closed either way, so it is never a terminal. */
  input?: string;
  configDir?: string;
}

/** Runs the bin asynchronously: the app it talks to is served from this very process. */
function cli(args: string[], options: RunOptions = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env.BANK_TEMPLATES_URL;
  delete env.BANK_TEMPLATES_API_KEY;
  Object.assign(env, { BANK_TEMPLATES_CONFIG_DIR: options.configDir ?? configDir }, options.env);
  return runCli(args, env, options.input);
}

const parse = (run: Run) => {
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
};

const progressLines = (stderr: string, verb: string) =>
  stderr.split("\n").filter((line) => new RegExp(`^\\[\\d+/\\d+\\] ${verb} `).test(line));

beforeAll(async () => {
  app = await serveApp();
  scratch = await mkdtemp(path.join(tmpdir(), "bank-templates-cli-"));
  configDir = path.join(scratch, "config");
  member = await t.user("cli-user");
  memberKey = member.token!;
  market.setFile("/acme/templates.json", catalog(...TEMPLATE_IDS.map((id) => catalogEntry(id))));
});

afterAll(async () => {
  await app?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("the bank-templates CLI", () => {
  it("exits 2 on usage errors: unknown command or option, missing ids, a bad argument", async () => {
    const [command, option, noIds, badVersion] = await Promise.all([
      cli(["frobnicate"]),
      cli(["sources", "list", "--bogus"]),
      cli(["templates", "install", "acme"], { env: { BANK_TEMPLATES_URL: app.url, BANK_TEMPLATES_API_KEY: "unused-key" } }),
      cli(["--json", "templates", "rollback", "t01", "latest"]),
    ]);
    expect(command).toMatchObject({ code: 2, stdout: "" });
    expect(command.stderr).toContain("unknown command 'frobnicate'");
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("unknown option '--bogus'");
    expect(noIds.code).toBe(2);
    expect(noIds.stderr).toContain("Give the template ids to install, or --all");
    expect(badVersion.code).toBe(2);
    expect(parse(badVersion)).toMatchObject({ type: "urn:bank-templates:cli:usage", detail: expect.stringContaining("positive integer") });
  });

  it("login refuses a bad key with exit 4, and stores a good one with mode 0600 without ever printing it", async () => {
    const badKey = `not-a-real-key-${"z".repeat(32)}`;
    const badDir = path.join(scratch, "bad-login");
    const pipedDir = path.join(scratch, "piped-login");
    const [bad, good, piped] = await Promise.all([
      cli(["login", "--url", app.url, "--key", badKey], { configDir: badDir }),
      cli(["login", "--url", `${app.url}/ext/svc/`, "--key", memberKey]),
      // Without --key and with stdin not a terminal, the key is the first line of stdin.
      cli(["login", "--json", "--url", app.url], { configDir: pipedDir, input: `${memberKey}\n` }),
    ]);

    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(/^error: 401 /m);
    expect(bad.stdout + bad.stderr).not.toContain(badKey);
    expect(existsSync(path.join(badDir, "config.json"))).toBe(false);

    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toContain(`logged in to ${app.url} as cli-user`);
    const file = path.join(configDir, "config.json");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(configDir)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ url: app.url, api_key: memberKey });

    expect(piped.code, piped.stderr).toBe(0);
    expect(parse(piped)).toMatchObject({ url: app.url, user_id: "cli-user", principal_type: "user" });
    expect((await stat(path.join(pipedDir, "config.json"))).mode & 0o777).toBe(0o600);
    for (const run of [good, piped]) expect(run.stdout + run.stderr).not.toContain(memberKey);
  });

  it("installs 20 templates at once with one progress line each, and the API lists them", async () => {
    const added = await cli(["sources", "add", `${market.url}/acme`, "--alias", "acme", "--description", "Team starters", "--json"]);
    expect(added.code, added.stderr).toBe(0);
    expect(parse(added)).toMatchObject({ name: "acme", scope: "personal", owner: "cli-user", description: "Team starters" });

    const install = await cli(["templates", "install", "acme", ...TEMPLATE_IDS]);
    expect(install.code, install.stderr).toBe(0);
    const lines = progressLines(install.stderr, "installed");
    expect(lines).toHaveLength(20);
    expect(lines.map((line) => line.match(/^\[(\d+)\/20\]/)![1]).map(Number)).toEqual(TEMPLATE_IDS.map((_, i) => i + 1));
    expect(lines.map((line) => line.split(" ").pop()).sort()).toEqual(TEMPLATE_IDS);
    expect(install.stdout).toContain("installed 20");

    const listed = await member.get("/ext/svc/me/templates");
    expect(listed.body.templates.map((template: { id: string }) => template.id)).toEqual(TEMPLATE_IDS);
  });

  it("exits 1 on a 409 with the problem's detail on stderr, and with --json the problem on stdout", async () => {
    const expected = await member.post("/ext/svc/me/templates/t01/install", { source_name: "acme" });
    expect(expected.status).toBe(409);
    const [install, source, all] = await Promise.all([
      cli(["templates", "install", "acme", "t01"]),
      cli(["sources", "add", `${market.url}/acme`, "--alias", "acme", "--json"]),
      // --all skips what is installed already: nothing to refuse.
      cli(["templates", "install", "acme", "--all", "--json"]),
    ]);

    expect(install.code).toBe(1);
    expect(install.stderr).toContain("[1/1] failed t01 (409");
    expect(install.stderr).toContain(`error: t01: 409 ${expected.body.title}: ${expected.body.detail}`);
    expect(install.stderr).toMatch(/^ {2}request id: \S+$/m);

    expect(source.code).toBe(1);
    const problem = parse(source);
    expect(problem).toMatchObject({ status: 409, detail: expect.any(String), request_id: expect.any(String) });
    expect(source.stderr).toContain(`error: 409 ${problem.title}: ${problem.detail}`);
    expect(source.stderr).toContain(`  request id: ${problem.request_id}`);

    expect(all.code, all.stderr).toBe(0);
    expect(parse(all)).toEqual(TEMPLATE_IDS.map((id) => ({ id, outcome: "skipped", result: null, problem: null })));
    expect(progressLines(all.stderr, "skipped")).toHaveLength(20);
  });

  it("prints one parseable JSON document with --json", async () => {
    const runs = await Promise.all([
      cli(["templates", "list", "--json"]),
      cli(["--json", "sources", "list", "--scope", "personal"]),
      cli(["sources", "catalog", "acme", "--json"]),
      cli(["templates", "show", "t01", "--json"]),
      cli(["templates", "check", "--json"]),
      cli(["templates", "versions", "t01", "--json"]),
      cli(["whoami", "--json"]),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const [list, sources, browse, show, check, versions, whoami] = runs.map(parse);
    expect(list.templates).toHaveLength(20);
    expect(sources).toEqual([expect.objectContaining({ name: "acme", has_auth: false })]);
    expect(browse.templates[0]).toMatchObject({ id: "t01", installed_as: ["t01"], problem: null });
    expect(show).toMatchObject({ id: "t01", scope: "personal", source_name: "acme", manifest: { version: "1" } });
    expect(check.results).toHaveLength(20);
    expect(check.results[0]).toMatchObject({ id: "t01", has_update: false, problem: null });
    expect(versions.versions).toEqual([expect.objectContaining({ version: 1, action: "install", actor: "cli-user" })]);
    expect(whoami).toEqual(expect.objectContaining({ url: app.url, user_id: "cli-user" }));
    expect(JSON.stringify(whoami)).not.toContain(memberKey);
  });

  it("updates --all with a progress line per template", async () => {
    market.setFile(
      "/acme/templates.json",
      catalog(...TEMPLATE_IDS.map((id) => catalogEntry(id, id === "t05" ? { description: "Upstream v2" } : {}))),
    );
    const update = await cli(["templates", "update", "--all", "--json"]);
    expect(update.code, update.stderr).toBe(0);
    expect(progressLines(update.stderr, "(updated|unchanged)")).toHaveLength(20);
    expect(update.stderr).toMatch(/^\[\d+\/20\] updated t05 \(\w+ → \w+\)$/m);
    const results = parse(update) as { id: string; outcome: string }[];
    expect(results.filter((r) => r.outcome === "updated").map((r) => r.id)).toEqual(["t05"]);
    expect((await member.get("/ext/svc/me/templates/t05")).body.description).toBe("Upstream v2");
  });

  it("updates with --merge, keeping local edits; a conflict fails that template with its paths", async () => {
    expect((await member.patch("/ext/svc/me/templates/t06", { description: "Mine" })).status).toBe(200);
    expect((await member.patch("/ext/svc/me/templates/t07", { tags: ["mine"] })).status).toBe(200);
    const upstream = (id: string) =>
      id === "t05" ? { description: "Upstream v2" } : id === "t06" ? { tags: ["starter", "v3"] } : id === "t07" ? { tags: ["theirs"] } : {};
    market.setFile("/acme/templates.json", catalog(...TEMPLATE_IDS.map((id) => catalogEntry(id, upstream(id)))));

    const merged = await cli(["templates", "update", "t06", "--merge", "--json"]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(parse(merged)).toEqual([expect.objectContaining({ id: "t06", outcome: "updated" })]);
    expect((await member.get("/ext/svc/me/templates/t06")).body).toMatchObject({
      description: "Mine",
      tags: ["starter", "v3"],
      locally_modified: true,
    });

    const conflicting = await cli(["templates", "update", "t07", "--merge"]);
    expect(conflicting.code).toBe(1);
    expect(conflicting.stderr).toMatch(/t07: 409 .*tags/);
    expect((await member.get("/ext/svc/me/templates/t07")).body.tags).toEqual(["mine"]);
  });

  it("banks create --dry-run prints the changes and writes nothing; then creates the bank", async () => {
    const [dryRun, dryRunJson] = await Promise.all([
      cli(["banks", "create", "cli:demo", "--template", "personal/t01", "--dry-run"]),
      cli(["banks", "create", "cli:demo", "--template", "personal/t01", "--dry-run", "--json"]),
    ]);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain("dry run");
    expect(dryRun.stdout).toContain('~ retain_mission: null → "Keep decisions and their reasons."');
    expect(dryRun.stdout).toMatch(/^ {2}\+ open-questions \(create\)$/m);
    expect(dryRun.stdout).toMatch(/^ {2}\+ decisions \(create\)$/m);
    expect(dryRun.stdout).toMatch(/^ {2}\+ Cite sources \(create\)$/m);
    const preview = parse(dryRunJson);
    expect(preview).toMatchObject({ bank_created: false, import_result: { dry_run: true } });
    expect(preview.changes.mental_models.map((m: { id: string }) => m.id)).toEqual(["open-questions", "decisions"]);
    expect((await member.get("/ext/svc/banks/cli:demo")).status).toBe(404);

    const created = await cli(["banks", "create", "cli:demo", "--template", "personal/t01"]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain("created bank cli:demo from personal/t01");
    expect((await member.get("/ext/svc/banks/cli:demo")).body).toMatchObject({
      owner: "cli-user",
      last_applied: { template: "personal/t01" },
    });
  });

  it("banks restore --dry-run prints what a restore would change; then restores, and history names it", async () => {
    const applied = (await member.get("/ext/svc/banks/cli:demo/history")).body.entries[0].id;
    expect((await member.delete(`/ext/svc/banks/cli:demo/directives/${encodeURIComponent("Cite sources")}`)).status).toBe(200);
    const dryRun = await cli(["banks", "restore", "cli:demo", applied, "--dry-run"]);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain(`dry run: restoring bank cli:demo to entry ${applied}`);
    expect(dryRun.stdout).toMatch(/^ {2}\+ Cite sources \(create\)$/m);
    expect((await member.get("/ext/svc/banks/cli:demo")).body.directives).toHaveLength(1);

    const restored = await cli(["banks", "restore", "cli:demo", applied, "--json"]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(parse(restored)).toMatchObject({ restored_from: applied, dry_run: false });
    expect((await member.get("/ext/svc/banks/cli:demo")).body.directives).toHaveLength(2);
    const history = await cli(["banks", "history", "cli:demo"]);
    expect(history.stdout).toContain(`restored: content put back as it was right after entry ${applied}`);
    const missing = await cli(["banks", "restore", "cli:demo", "no-such-entry"]);
    expect(missing.code).not.toBe(0);
  });

  it("puts, reads and resolves a bank policy; validates manifests", async () => {
    const policyFile = path.join(scratch, "policy.json");
    await writeFile(
      policyFile,
      JSON.stringify({
        version: "2026-03-24",
        default_strategy: "balanced",
        strategy_overrides: [{ scope: "channel", value: "incidents", strategy: "thorough" }],
      }),
    );
    const badManifest = path.join(scratch, "bad-manifest.json");
    await writeFile(badManifest, JSON.stringify({ version: "2", mental_models: [] }));

    const put = await cli(["policy", "put", "cli:demo", "-f", policyFile]);
    expect(put.code, put.stderr).toBe(0);
    const [get, resolve, invalid] = await Promise.all([
      cli(["policy", "get", "cli:demo", "--json"]),
      cli(["policy", "resolve", "cli:demo", "--channel", "incidents", "--json"]),
      cli(["templates", "validate", "-f", badManifest]),
    ]);
    expect(parse(get)).toMatchObject({ bank_id: "cli:demo", document: { default_strategy: "balanced" } });
    expect(parse(resolve)).toEqual({ strategy: "thorough", public_access: null });
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toMatch(/invalid\n {2}error at version: /);
  });

  describe("versions (CONTRACT §19): edits written only over what was read", () => {
    const asAdmin = () => ({ env: { BANK_TEMPLATES_URL: app.url, BANK_TEMPLATES_API_KEY: ADMIN_TOKEN } });
    const policy = (strategy: string) => ({ version: "2026-03-24", default_strategy: strategy });
    /**
     * An editor for `policy edit` and `templates edit`: sets the fields of EDIT_FIELDS in the file
     * it is given; with RACE_PATH, someone else first writes RACE_BODY there (PUT or PATCH RACE_METHOD).
     */
    let editor: string;
    beforeAll(async () => {
      const script = path.join(scratch, "editor.mjs");
      await writeFile(
        script,
        `import { readFileSync, writeFileSync } from "node:fs";
const file = process.argv[2];
const env = process.env;
if (env.RACE_PATH) {
  const answer = await fetch(env.BANK_TEMPLATES_URL + env.RACE_PATH, {
    method: env.RACE_METHOD,
    headers: { authorization: "Bearer " + env.BANK_TEMPLATES_API_KEY, "content-type": "application/json" },
    body: env.RACE_BODY,
  });
  if (!answer.ok) process.exit(9);
}
writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), ...JSON.parse(env.EDIT_FIELDS) }));
`,
      );
      editor = `"${process.execPath}" "${script}"`;
    });
    const editing = (fields: Record<string, unknown>, race?: { method: string; path: string; body: unknown }) => ({
      env: {
        ...asAdmin().env,
        VISUAL: "",
        EDITOR: editor,
        EDIT_FIELDS: JSON.stringify(fields),
        ...(race ? { RACE_METHOD: race.method, RACE_PATH: race.path, RACE_BODY: JSON.stringify(race.body) } : {}),
      },
    });

    it("policy put sends the etag `policy get --json` printed: exit 6 when someone changed it since, nothing written; --force overwrites", async () => {
      expect((await t.admin.send("PUT", "/ext/svc/banks/cli:etag/policy", { document: policy("balanced") })).status).toBe(200);
      const got = await cli(["policy", "get", "cli:etag", "--json"], asAdmin());
      const read = parse(got);
      expect(read).toMatchObject({ bank_id: "cli:etag", document: { default_strategy: "balanced" }, etag: expect.stringMatching(/^"/) });

      // Someone else changes it; then the edit made from the read is put back.
      expect((await t.admin.send("PUT", "/ext/svc/banks/cli:etag/policy", { document: policy("fast") })).status).toBe(200);
      const edited = path.join(scratch, "edited-policy.json");
      await writeFile(edited, JSON.stringify({ ...read, document: policy("thorough") }));
      const stale = await cli(["policy", "put", "cli:etag", "-f", edited], asAdmin());
      expect(stale.code).toBe(6);
      expect(stale.stderr).toContain("the policy of bank cli:etag changed since it was read");
      expect(stale.stderr).toContain("nothing was written");
      expect(stale.stderr).toContain("--force");
      expect((await t.admin.get("/ext/svc/banks/cli:etag/policy")).body.document.default_strategy).toBe("fast");
      const json = await cli(["--json", "policy", "put", "cli:etag", "-f", edited], asAdmin());
      expect(json.code).toBe(6);
      expect(parse(json)).toMatchObject({
        type: "urn:bank-templates:problem:precondition-failed",
        status: 412,
        current_etag: expect.any(String),
      });

      const forced = await cli(["policy", "put", "cli:etag", "-f", edited, "--force"], asAdmin());
      expect(forced.code, forced.stderr).toBe(0);
      expect((await t.admin.get("/ext/svc/banks/cli:etag/policy")).body.document.default_strategy).toBe("thorough");
      // A bare document (as `policy get` prints it) carries no version: written as before.
      const bare = path.join(scratch, "bare-policy.json");
      await writeFile(bare, JSON.stringify(policy("balanced")));
      expect((await cli(["policy", "put", "cli:etag", "-f", bare], asAdmin())).code).toBe(0);
      const both = await cli(["policy", "put", "cli:etag", "-f", bare, "--force", "--if-match", '"x"'], asAdmin());
      expect(both.code).toBe(2);
    }, 90_000);

    it("answers a poller's --if-none-match with a note while the policy or template is unchanged", async () => {
      await t.admin.send("PUT", "/ext/svc/banks/cli:poll/policy", { document: policy("balanced") });
      const { etag } = parse(await cli(["policy", "get", "cli:poll", "--json"], asAdmin()));
      const [same, sameJson] = await Promise.all([
        cli(["policy", "get", "cli:poll", "--if-none-match", etag], asAdmin()),
        cli(["policy", "get", "cli:poll", "--if-none-match", etag, "--json"], asAdmin()),
      ]);
      expect(same).toMatchObject({ code: 0, stdout: "" });
      expect(same.stderr).toContain(`the policy of bank cli:poll has not changed since ${etag}`);
      expect(parse(sameJson)).toEqual({ bank_id: "cli:poll", not_modified: true, etag });
      await t.admin.send("PUT", "/ext/svc/banks/cli:poll/policy", { document: policy("fast") });
      const changed = await cli(["policy", "get", "cli:poll", "--if-none-match", etag], asAdmin());
      expect(changed.code).toBe(0);
      expect(JSON.parse(changed.stdout)).toMatchObject({ default_strategy: "fast" });

      const template = parse(await cli(["templates", "show", "t02", "--json"]));
      expect(template).toMatchObject({ id: "t02", etag: expect.stringMatching(/^"/) });
      const unchanged = await cli(["templates", "show", "t02", "--if-none-match", template.etag, "--json"]);
      expect(parse(unchanged)).toEqual({ id: "t02", scope: "personal", not_modified: true, etag: template.etag });
    }, 90_000);

    it("policy edit writes what the editor saved only over the version it read; a change made meanwhile exits 6 and keeps the edit", async () => {
      await t.admin.send("PUT", "/ext/svc/banks/cli:edit/policy", { document: policy("balanced") });
      const edited = await cli(["policy", "edit", "cli:edit"], editing({ default_strategy: "thorough" }));
      expect(edited.code, edited.stderr).toBe(0);
      expect(edited.stdout).toContain("stored the policy of bank cli:edit");
      expect((await t.admin.get("/ext/svc/banks/cli:edit/policy")).body.document.default_strategy).toBe("thorough");

      const theirs = { method: "PUT", path: "/ext/svc/banks/cli:edit/policy", body: { document: policy("fast") } };
      const raced = await cli(["policy", "edit", "cli:edit"], editing({ default_strategy: "mine" }, theirs));
      expect(raced.code).toBe(6);
      expect(raced.stderr).toContain("the policy of bank cli:edit changed since it was read");
      const kept = /Your edit is kept in (\S+)\./.exec(raced.stderr)?.[1];
      expect(JSON.parse(await readFile(kept!, "utf8"))).toMatchObject({ default_strategy: "mine" });
      expect((await t.admin.get("/ext/svc/banks/cli:edit/policy")).body.document.default_strategy).toBe("fast");

      const forced = await cli(["policy", "edit", "cli:edit", "--force"], editing({ default_strategy: "mine" }, theirs));
      expect(forced.code, forced.stderr).toBe(0);
      expect((await t.admin.get("/ext/svc/banks/cli:edit/policy")).body.document.default_strategy).toBe("mine");
      // A bank without a policy: the edit creates one, only if nobody else did meanwhile.
      const created = await cli(
        ["policy", "edit", "cli:new"],
        editing({ default_strategy: "balanced" }, { ...theirs, path: "/ext/svc/banks/cli:new/policy" }),
      );
      expect(created.code).toBe(6);
    }, 90_000);

    it("templates edit writes the manifest over the version it read; a change made meanwhile exits 6", async () => {
      // The admin's own template, so that the server's list stays as the other tests expect it.
      await t.admin.send("POST", "/ext/svc/me/templates", { id: "cli-edit", name: "Edit me", manifest: { version: "1" } });
      const edited = await cli(["templates", "edit", "cli-edit"], editing({ bank: { retain_mission: "Mine." } }));
      expect(edited.code, edited.stderr).toBe(0);
      expect((await t.admin.get("/ext/svc/me/templates/cli-edit")).body.manifest).toEqual({
        version: "1",
        bank: { retain_mission: "Mine." },
      });

      const theirs = { method: "PATCH", path: "/ext/svc/me/templates/cli-edit", body: { description: "Theirs" } };
      const raced = await cli(["templates", "edit", "cli-edit"], editing({ bank: { retain_mission: "Again." } }, theirs));
      expect(raced.code).toBe(6);
      expect(raced.stderr).toContain("personal template cli-edit changed since it was read");
      expect((await t.admin.get("/ext/svc/me/templates/cli-edit")).body).toMatchObject({
        description: "Theirs",
        manifest: { bank: { retain_mission: "Mine." } },
      });
    }, 90_000);
  });

  it("takes the server and key from the environment; exits 3 when unreachable, 4 when not logged in or not allowed", async () => {
    const closed = createServer();
    const port = await listenOnLoopback(closed);
    await new Promise((resolve) => closed.close(resolve));
    const emptyDir = path.join(scratch, "nobody");

    const [unreachable, notLoggedIn, badEnvKey, admin, forbidden] = await Promise.all([
      cli(["sources", "list"], { env: { BANK_TEMPLATES_URL: `http://127.0.0.1:${port}`, BANK_TEMPLATES_API_KEY: memberKey } }),
      cli(["whoami"], { configDir: emptyDir }),
      // The environment wins over the stored (good) login.
      cli(["whoami"], { env: { BANK_TEMPLATES_API_KEY: `revoked-${"k".repeat(32)}` } }),
      cli(["templates", "list", "--scope", "server", "--json"], { env: { BANK_TEMPLATES_API_KEY: ADMIN_TOKEN } }),
      cli(["templates", "list", "--scope", "server"]),
    ]);
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain(`Cannot reach http://127.0.0.1:${port}`);
    expect(unreachable.stderr).not.toContain(memberKey);
    expect(notLoggedIn.code).toBe(4);
    expect(notLoggedIn.stderr).toContain("bank-templates login");
    expect(badEnvKey.code).toBe(4);
    expect(admin.code, admin.stderr).toBe(0);
    expect(parse(admin)).toEqual({ templates: [] });
    expect(forbidden.code).toBe(4);
    expect(forbidden.stderr).toMatch(/^error: 403 /m);
  });

  it("--scope server works on the admin's twins of the personal paths", async () => {
    const asAdmin = { env: { BANK_TEMPLATES_API_KEY: ADMIN_TOKEN } };
    const run = (...args: string[]) => cli([...args, "--scope", "server", "--json"], asAdmin);
    const added = await run("sources", "add", `${market.url}/acme`, "--alias", "shared");
    expect(added.code, added.stderr).toBe(0);
    expect((await t.admin.get("/ext/svc/admin/template-sources")).body).toEqual([expect.objectContaining({ name: "shared" })]);

    const install = await cli(["templates", "install", "shared", "t01", "--scope", "server", "--source-scope", "server"], asAdmin);
    expect(install.code, install.stderr).toBe(0);
    expect((await t.admin.get("/ext/svc/admin/templates/t01")).status).toBe(200);
    // The member's personal t01 (installed earlier) is another template.
    expect((await member.get("/ext/svc/me/templates/t01")).status).toBe(200);

    const versions = await run("templates", "versions", "t01");
    expect(versions.code, versions.stderr).toBe(0);
    expect(parse(versions).versions).toHaveLength(1);
    expect((await run("templates", "delete", "t01")).code).toBe(0);
    expect((await t.admin.get("/ext/svc/admin/templates/t01")).status).toBe(404);
    expect((await member.get("/ext/svc/me/templates/t01")).status).toBe(200);
    expect((await run("sources", "remove", "shared")).code).toBe(0);
    expect((await t.admin.get("/ext/svc/admin/template-sources")).body).toEqual([]);
  });

  it("logout removes the stored login", async () => {
    const logout = await cli(["logout"]);
    expect(logout.code).toBe(0);
    expect(existsSync(path.join(configDir, "config.json"))).toBe(false);
    expect((await cli(["whoami"])).code).toBe(4);
  });
});
