import { beforeAll, describe, expect, it } from "vitest";
import { banks } from "@/db/schema";
import { type Client, useTestApp } from "./support/app";
import { catalog } from "./support/fixtures";
import { useMarketplace } from "./support/use-marketplace";

// CONTRACT §12: manifests (and the JSON stored beside them) keep their keys in the order they
// were received, from a request or a catalog, in every answer.
const t = useTestApp();

const market = useMarketplace(t);
let alice: Client;

beforeAll(async () => {
  alice = await t.user("alice");
});

/** Every object's keys, depth first, with its path: equal lists mean equal key order everywhere. */
function keyPaths(value: unknown, path = "$"): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => keyPaths(item, `${path}[${i}]`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, child]) => [`${path}.${key}`, ...keyPaths(child, `${path}.${key}`)]);
}

/** Known keys out of the schema's order, unknown keys among them, at every level. */
const unusualManifest = () => ({
  mental_models: [
    {
      trigger: { refresh_cron: null, z_trigger_custom: true, mode: "delta" },
      source_query: "What is still open?",
      z_model_custom: 1,
      name: "Open questions",
      id: "open-questions",
    },
  ],
  directives: [{ priority: 2, content: "Name the document each fact comes from.", name: "Cite sources" }],
  version: "1",
  bank: { z_custom: 1, disposition_skepticism: 4, retain_mission: "Keep decisions.", a_custom: { z: 1, a: 2 } },
});

describe("key order", () => {
  it("answers a created template's manifest with its keys in the order sent, on create, read and list", async () => {
    const sent = unusualManifest();
    const created = await alice.post("/ext/svc/me/templates", { manifest: sent, name: "Odd order", id: "odd" });
    expect(created.status).toBe(200);
    expect(keyPaths(created.body.manifest)).toEqual(keyPaths(sent));
    const read = await alice.get("/ext/svc/me/templates/odd");
    expect(keyPaths(read.body.manifest)).toEqual(keyPaths(sent));
    expect(JSON.stringify(read.body.manifest)).toBe(JSON.stringify(sent));
    const listed = await alice.get("/ext/svc/me/templates?limit=10");
    expect(JSON.stringify(listed.body.templates[0].manifest)).toBe(JSON.stringify(sent));
  });

  it("keeps the order of a patched manifest", async () => {
    const sent = { directives: [], bank: { retain_mission: "B", reflect_mission: "A" }, version: "1" };
    const patched = await alice.patch("/ext/svc/me/templates/odd", { manifest: sent });
    expect(patched.status).toBe(200);
    expect(JSON.stringify(patched.body.manifest)).toBe(JSON.stringify(sent));
    expect(JSON.stringify((await alice.get("/ext/svc/me/templates/odd")).body.manifest)).toBe(JSON.stringify(sent));
  });

  it("installs a catalog's manifest in the catalog's order; right after an update the preview shows no change", async () => {
    const entry = (description: string) => ({
      manifest: unusualManifest(),
      tags: ["b", "a"],
      id: "market-odd",
      name: "Market odd",
      description,
    });
    market.setFile("/odd/templates.json", catalog(entry("first")));
    expect((await alice.post("/ext/svc/me/template-sources", { url: `${market.url}/odd`, alias: "odd" })).status).toBe(201);
    const installed = await alice.post("/ext/svc/me/templates/market-odd/install", { source_name: "odd" });
    expect(installed.status).toBe(200);
    expect(JSON.stringify(installed.body.manifest)).toBe(JSON.stringify(unusualManifest()));

    market.setFile("/odd/templates.json", catalog(entry("second")));
    const updated = await alice.post("/ext/svc/me/templates/market-odd/update");
    expect(updated.status).toBe(200);
    expect(updated.body.updated).toBe(true);
    const preview = await alice.get("/ext/svc/me/templates/market-odd/update-preview");
    expect(preview.status).toBe(200);
    expect(preview.body.has_update).toBe(false);
    // What the console diffs: the installed content beside the latest, field for field, as text.
    const { current, latest } = preview.body;
    for (const field of ["name", "description", "category", "integrations", "tags", "manifest"]) {
      expect(JSON.stringify(current[field]), field).toBe(JSON.stringify(latest[field]));
    }
    expect(JSON.stringify(current.manifest)).toBe(JSON.stringify(unusualManifest()));
  });

  it("keeps the order of a bank's config, mental models and directives applied from a template", async () => {
    const created = await alice.post("/ext/svc/banks", { bank_id: "odd-bank", template: "odd" });
    expect(created.status).toBe(200);
    await alice.post("/ext/svc/me/templates", { id: "odd-full", name: "Odd full", manifest: unusualManifest() });
    expect((await alice.post("/ext/svc/banks", { bank_id: "odd-bank", template: "odd-full" })).status).toBe(200);
    const bank = await alice.get("/ext/svc/banks/odd-bank");
    expect(bank.status).toBe(200);
    const sent = unusualManifest();
    // The config merges imports field by field: keys the first import set keep their place.
    expect(Object.keys(bank.body.config)).toEqual(["retain_mission", "reflect_mission", "z_custom", "disposition_skepticism", "a_custom"]);
    expect(JSON.stringify(bank.body.config.a_custom)).toBe(JSON.stringify(sent.bank.a_custom));
    expect(JSON.stringify(bank.body.mental_models)).toBe(JSON.stringify(sent.mental_models));
    expect(JSON.stringify(bank.body.directives)).toBe(JSON.stringify(sent.directives));
  });

  it("keeps the order of a policy document", async () => {
    await t.app.db.insert(banks).values({ id: "odd-policy", owner: "alice", name: "odd-policy" });
    const document = {
      public_access: { overrides: [], default: { recall_max_tokens: 10, actions: ["bank:recall"] } },
      strategy_overrides: [{ strategy: "s", value: "slack", scope: "provider" }],
      version: "2026-03-24",
      default_strategy: "balanced",
    };
    const put = await alice.put("/ext/svc/banks/odd-policy/policy", { document });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body.document)).toBe(JSON.stringify(document));
    const get = await alice.get("/ext/svc/banks/odd-policy/policy");
    expect(JSON.stringify(get.body.document)).toBe(JSON.stringify(document));
  });
});
