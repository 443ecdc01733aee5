import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHindclawClient, documentedOperations, type Exchange, UndocumentedStatus } from "./hindclaw-client";
import { generateHindclawSchema, HINDCLAW_SCHEMA_PATH } from "./hindclaw-client/generate";
import { ADMIN_TOKEN, useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { type ServedApp, serveApp } from "./support/http-app";
import { useMarketplace } from "./support/use-marketplace";

// Issue 18 / CONTRACT §15: a client generated from hindclaw's own document, as strict as hindclaw's
// generated Python and Rust clients (a status its operation does not list is an error, thrown),
// drives all 26 operations over HTTP with no undocumented status. Every optional request field is
// sent as null once, which hindclaw's clients do for fields they leave unset: CONTRACT §10 and §15
// say it means "absent", except in a PATCH, where it clears description and category.
const t = useTestApp();
const market = useMarketplace(t);
let app: ServedApp;
const exchanges: Exchange[] = [];
let member: ReturnType<typeof createHindclawClient>;
let admin: ReturnType<typeof createHindclawClient>;

/**
 * hindclaw's document does not let this optional field be null, so its typed clients never send null
 * there; clients that build bodies by hand do, and CONTRACT §10 makes it mean "absent" too.
 */
const NULL_BEYOND_THE_DOCUMENT = null as never;

const MARKET = "/hindclaw-market";
// With no alias, a source is named after the first segment of its URL's path (CONTRACT §5).
const SOURCE = "hindclaw-market";
const BANK = "hindclaw:strict";

beforeAll(async () => {
  app = await serveApp();
  market.setFile(`${MARKET}/templates.json`, catalog(catalogEntry("notes-bot"), catalogEntry("ops-bot")));
  const ivy = await t.user("ivy");
  const onExchange = (exchange: Exchange) => exchanges.push(exchange);
  member = createHindclawClient({ baseUrl: app.url, apiKey: ivy.token!, onExchange });
  admin = createHindclawClient({ baseUrl: app.url, apiKey: ADMIN_TOKEN, onExchange });
});
afterAll(() => app?.close());

/** The data of a call that must succeed; an undocumented status has already thrown. */
async function succeeded<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  expect(response.ok, `${response.status}: ${JSON.stringify(error)}`).toBe(true);
  return data as T;
}

describe("the strict client of hindclaw's document", () => {
  it("holds the types openapi-typescript generates from the vendored document", async () => {
    const committed = readFileSync(HINDCLAW_SCHEMA_PATH, "utf8");
    expect(committed, "tests/hindclaw-client/schema.d.ts is stale: run `npm run client:generate`").toBe(await generateHindclawSchema());
  });

  it("throws on a status the operation does not list, as hindclaw's clients do", async () => {
    const missing = member.GET("/ext/hindclaw/me/templates/{template_id}", { params: { path: { template_id: "missing" } } });
    await expect(missing).rejects.toThrow(UndocumentedStatus);
    await expect(missing).rejects.toMatchObject({ operationId: "get_my_template", status: 404 });
  });

  it("registers sources with alias, auth_token and description null", async () => {
    const body = { url: `${market.url}${MARKET}`, alias: null, auth_token: null, description: null };
    const personal = await succeeded(member.POST("/ext/hindclaw/me/template-sources", { body }));
    expect(personal).toMatchObject({ name: SOURCE, scope: "personal", has_auth: false, description: null });
    const server = await succeeded(admin.POST("/ext/hindclaw/admin/template-sources", { body }));
    expect(server).toMatchObject({ name: SOURCE, scope: "server", owner: null });
    expect((await succeeded(member.GET("/ext/hindclaw/me/template-sources"))).map((s) => s.name)).toEqual([SOURCE]);
    expect((await succeeded(admin.GET("/ext/hindclaw/admin/template-sources"))).map((s) => s.name)).toEqual([SOURCE]);
  });

  it.each([
    ["personal", "/ext/hindclaw/me/templates", "notes-bot"],
    ["server", "/ext/hindclaw/admin/templates", "ops-bot"],
  ] as const)("runs every %s template operation, with every optional field null once", async (scope, base, catalogId) => {
    const client = scope === "personal" ? member : admin;
    const item = `${base}/{template_id}` as const;
    const made = await succeeded(
      client.POST(base, {
        body: {
          id: "hand",
          name: "Hand made",
          manifest: manifest(),
          description: null,
          category: null,
          integrations: NULL_BEYOND_THE_DOCUMENT,
          tags: NULL_BEYOND_THE_DOCUMENT,
        },
      }),
    );
    expect(made).toMatchObject({ id: "hand", scope, description: null, category: null, integrations: [], tags: [] });
    const listed = await succeeded(client.GET(base, { params: { query: { category: null, tag: null } } }));
    expect(listed.templates.map((x) => x.id)).toEqual(["hand"]);
    const path = { template_id: "hand" };
    expect(await succeeded(client.GET(item, { params: { path } }))).toEqual(made);

    // Named, described and tagged first, so the nulls below have something to leave or clear.
    await succeeded(client.PATCH(item, { params: { path }, body: { description: "Said", category: "ops", tags: ["kept"] } }));
    const nulls = { name: null, description: null, category: null, integrations: null, tags: null, manifest: null };
    const patched = await succeeded(client.PATCH(item, { params: { path }, body: nulls }));
    expect(patched).toMatchObject({ name: "Hand made", description: null, category: null, tags: ["kept"], manifest: made.manifest });

    const installed = await succeeded(
      client.POST(`${item}/install`, {
        params: { path: { template_id: catalogId } },
        body: { source_name: SOURCE, alias_id: null, source_scope: NULL_BEYOND_THE_DOCUMENT },
      }),
    );
    expect(installed).toMatchObject({ id: catalogId, scope, source_name: SOURCE, source_scope: scope });
    const installedPath = { template_id: catalogId };
    const check = await succeeded(client.GET(`${item}/check-update`, { params: { path: installedPath } }));
    expect(check).toMatchObject({ has_update: false, source_name: SOURCE, source_scope: scope });
    const update = await succeeded(
      client.POST(`${item}/update`, { params: { path: installedPath, query: { force: NULL_BEYOND_THE_DOCUMENT } } }),
    );
    expect(update).toMatchObject({ updated: false, previous_revision: installed.source_revision });

    expect((await client.DELETE(item, { params: { path } })).response.status).toBe(204);
  });

  it("creates a bank with name null, and puts, reads and deletes its policy", async () => {
    const created = await succeeded(
      member.POST("/ext/hindclaw/banks", { body: { bank_id: BANK, template: "personal/notes-bot", name: null } }),
    );
    expect(created).toMatchObject({ bank_id: BANK, template: "personal/notes-bot", bank_created: true });
    const again = await succeeded(member.POST("/ext/hindclaw/banks", { body: { bank_id: BANK, template: "notes-bot" } }));
    expect(again.bank_created).toBe(false);

    const path = { bank_id: BANK };
    const document = { version: "2026-03-24", default_strategy: null };
    expect(await succeeded(member.PUT("/ext/hindclaw/banks/{bank_id}/policy", { params: { path }, body: { document } }))).toEqual({
      bank_id: BANK,
      document,
    });
    expect(await succeeded(member.GET("/ext/hindclaw/banks/{bank_id}/policy", { params: { path } }))).toEqual({ bank_id: BANK, document });
    expect((await member.DELETE("/ext/hindclaw/banks/{bank_id}/policy", { params: { path } })).response.status).toBe(204);
  });

  it("removes the sources", async () => {
    const path = { name: SOURCE };
    expect((await member.DELETE("/ext/hindclaw/me/template-sources/{name}", { params: { path } })).response.status).toBe(204);
    expect((await admin.DELETE("/ext/hindclaw/admin/template-sources/{name}", { params: { path } })).response.status).toBe(204);
  });

  it("drove every operation of the document, each only with statuses it lists", () => {
    const driven = new Set(exchanges.map((e) => e.operationId));
    expect([...driven].sort()).toEqual(
      documentedOperations()
        .map((o) => o.operationId)
        .sort(),
    );
    const statuses = new Map(documentedOperations().map((o) => [o.operationId, o.statuses]));
    for (const { operationId, status } of exchanges) expect(statuses.get(operationId), operationId).toContain(status);
  });
});
