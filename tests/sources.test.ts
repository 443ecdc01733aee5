import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Client, useTestApp } from "./support/app";
import { catalog, catalogEntry } from "./support/fixtures";
import { useMarketplace } from "./support/use-marketplace";

const t = useTestApp();
const market = useMarketplace(t);
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("personal template sources", () => {
  let alice: Client;
  let bob: Client;
  let aliceBot: Client;

  it("sets up alice, bob and alice's service account", async () => {
    alice = await t.user("alice");
    bob = await t.user("bob");
    expect((await alice.post("/ext/svc/me/service-accounts", { id: "ci-bot" })).status).toBe(201);
    const key = await alice.post("/ext/svc/me/service-accounts/ci-bot/api-keys", {});
    expect(key.status).toBe(201);
    const { as } = await import("./support/app");
    aliceBot = as(key.body.token);
  });

  it("creates a source with every field, deriving the name from the URL", async () => {
    const res = await alice.post("/ext/svc/me/template-sources", { url: "https://github.com/acme/bank-templates" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      name: "acme",
      url: "https://github.com/acme/bank-templates",
      scope: "personal",
      owner: "alice",
      has_auth: false,
      description: null,
      created_at: expect.stringMatching(ISO_Z),
      updated_at: expect.stringMatching(ISO_Z),
      catalog_fetched_at: null,
      catalog_error: null,
    });
  });

  it("strips a trailing slash and .git before deriving", async () => {
    const slash = await alice.post("/ext/svc/me/template-sources", { url: "https://git.example.com/tools.git/" });
    expect(slash.status).toBe(201);
    expect(slash.body.name).toBe("tools");
    const git = await alice.post("/ext/svc/me/template-sources", { url: "https://git.example.com/single.git" });
    expect(git.body.name).toBe("single");
  });

  it("uses the alias and reports has_auth when a token is given, never returning it", async () => {
    const res = await alice.post("/ext/svc/me/template-sources", {
      url: "https://example.com/",
      alias: "private-market",
      auth_token: "s3cret-token-value",
    });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("private-market");
    expect(res.body.has_auth).toBe(true);
    expect(res.text).not.toContain("s3cret-token-value");
    const list = await alice.get("/ext/svc/me/template-sources");
    expect(list.text).not.toContain("s3cret-token-value");
    const rows = await t.app.db.execute(sql`select * from template_sources`);
    expect(JSON.stringify(rows)).not.toContain("s3cret-token-value");
  });

  it("answers 409 on a duplicate name", async () => {
    const res = await alice.post("/ext/svc/me/template-sources", { url: "https://gitlab.com/acme/other" });
    expect(res.status).toBe(409);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    // The console shows the conflict at the field the name came from.
    expect(res.body.errors).toEqual([{ path: "url", message: expect.stringContaining("acme") }]);
    const aliased = await alice.post("/ext/svc/me/template-sources", { url: "https://example.com/", alias: "acme" });
    expect(aliased.status).toBe(409);
    expect(aliased.body.errors).toEqual([{ path: "alias", message: expect.any(String) }]);
  });

  it.each([
    ["no path segment", { url: "https://example.com/" }, "url"],
    ["ftp", { url: "ftp://x/y" }, "url"],
    ["malformed URL", { url: "not a url" }, "url"],
    ["relative URL", { url: "/acme/templates" }, "url"],
    ["alias with a space", { url: "https://example.com/x", alias: "a b" }, "alias"],
    ["derived name with bad characters", { url: "https://example.com/-bad" }, "url"],
    ["missing url", {}, "url"],
    ["unknown field", { url: "https://example.com/x", colour: "red" }, "colour"],
  ])("answers 422 for %s", async (_, body, path) => {
    const res = await alice.post("/ext/svc/me/template-sources", body);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("shows each actor only its own sources; the service account sees its owner's", async () => {
    await bob.post("/ext/svc/me/template-sources", { url: "https://github.com/bobco/templates" });
    const names = async (c: Client) => (await c.get("/ext/svc/me/template-sources")).body.map((s: { name: string }) => s.name);
    expect(await names(alice)).toEqual(["acme", "private-market", "single", "tools"]);
    expect(await names(aliceBot)).toEqual(["acme", "private-market", "single", "tools"]);
    expect(await names(bob)).toEqual(["bobco"]);
  });

  it("lets the service account create sources owned by its user", async () => {
    const res = await aliceBot.post("/ext/svc/me/template-sources", { url: "https://example.com/bot-market" });
    expect(res.status).toBe(201);
    expect(res.body.owner).toBe("alice");
  });

  it("answers 404 when bob deletes alice's source, and leaves it in place", async () => {
    expect((await bob.delete("/ext/svc/me/template-sources/acme")).status).toBe(404);
    expect((await alice.get("/ext/svc/me/template-sources")).body.map((s: { name: string }) => s.name)).toContain("acme");
  });

  it("never deletes a server source through /me", async () => {
    expect((await t.admin.post("/ext/svc/admin/template-sources", { url: "https://github.com/company/templates" })).status).toBe(201);
    expect((await t.admin.delete("/ext/svc/me/template-sources/company")).status).toBe(404);
    expect((await alice.delete("/ext/svc/me/template-sources/company")).status).toBe(404);
    const server = await t.admin.get("/ext/svc/admin/template-sources");
    expect(server.body).toEqual([expect.objectContaining({ name: "company", scope: "server", owner: null })]);
  });

  it("lets a personal and a server source share a name", async () => {
    expect((await t.admin.post("/ext/svc/admin/template-sources", { url: "https://x.example/acme" })).status).toBe(201);
    expect((await t.admin.post("/ext/svc/admin/template-sources", { url: "https://y.example/acme" })).status).toBe(409);
  });

  it("deletes the caller's own source with 204 and an empty body", async () => {
    const res = await alice.delete("/ext/svc/me/template-sources/tools");
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await alice.delete("/ext/svc/me/template-sources/tools")).status).toBe(404);
  });

  it("keeps server sources to admins", async () => {
    expect((await alice.get("/ext/svc/admin/template-sources")).status).toBe(403);
    expect((await alice.post("/ext/svc/admin/template-sources", { url: "https://z.example/q" })).status).toBe(403);
    expect((await aliceBot.delete("/ext/svc/admin/template-sources/company")).status).toBe(403);
  });

  it("lists every source an actor can install from: its own personal ones and the server's", async () => {
    const names = (res: { body: { name: string; scope: string }[] }) => res.body.map((x) => `${x.scope}:${x.name}`);
    expect(names(await bob.get("/ext/svc/template-sources"))).toEqual(["server:acme", "personal:bobco", "server:company"]);
    expect(names(await aliceBot.get("/ext/svc/template-sources"))).toEqual([
      "personal:acme",
      "server:acme",
      "personal:bot-market",
      "server:company",
      "personal:private-market",
      "personal:single",
    ]);
    expect((await bob.get("/ext/svc/template-sources")).text).not.toContain("alice");
  });
});

describe("a source's description (CONTRACT §15)", () => {
  it.each([
    ["/ext/svc/me/template-sources", "personal"],
    ["/ext/svc/admin/template-sources", "server"],
  ])("%s keeps a given description, and null or none means null", async (base) => {
    const given = await t.admin.post(base, { url: "https://github.com/described/templates", description: "Our team's starters." });
    expect(given.status, given.text).toBe(201);
    expect(given.body.description).toBe("Our team's starters.");
    const none = await t.admin.post(base, { url: "https://github.com/plain/templates", description: null });
    expect(none.status, none.text).toBe(201);
    expect(none.body.description).toBeNull();
    const listed = (await t.admin.get(base)).body
      .filter((s: { name: string }) => s.name === "described" || s.name === "plain")
      .map((s: { name: string; description: string | null }) => [s.name, s.description]);
    expect(listed).toEqual([
      ["described", "Our team's starters."],
      ["plain", null],
    ]);
  });

  it("accepts up to 1,000 characters and answers 422 at description beyond", async () => {
    const dana = await t.user("dana");
    const longest = await dana.post("/ext/svc/me/template-sources", { url: "https://github.com/long/t", description: "d".repeat(1000) });
    expect(longest.status, longest.text).toBe(201);
    const tooLong = await dana.post("/ext/svc/me/template-sources", { url: "https://github.com/longer/t", description: "d".repeat(1001) });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors).toEqual([expect.objectContaining({ path: "description" })]);
    expect((await dana.post("/ext/svc/me/template-sources", { url: "https://github.com/typed/t", description: 5 })).status).toBe(422);
  });

  it("is never replaced by the catalog's own description", async () => {
    const erin = await t.user("erin");
    market.setFile("/described/templates.json", { ...catalog(catalogEntry("notes-bot")), description: "The market's words." });
    const source = await erin.post("/ext/svc/me/template-sources", {
      url: `${market.url}/described`,
      alias: "mine",
      description: "My words.",
    });
    expect(source.status, source.text).toBe(201);
    expect((await erin.get("/ext/svc/me/template-sources/mine/catalog")).status).toBe(200);
    expect((await erin.post("/ext/svc/me/templates/notes-bot/install", { source_name: "mine" })).status).toBe(200);
    expect((await erin.get("/ext/svc/me/template-sources")).body).toEqual([
      expect.objectContaining({ name: "mine", description: "My words." }),
    ]);
  });
});
