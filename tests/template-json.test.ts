import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { templates, users } from "@/db/schema";
import type { OwnerScope } from "@/lib/contracts/scope";
import { loadConfig } from "@/lib/platform/config";
import { encodeCursor } from "@/lib/platform/cursor";
import type { ServiceContext } from "@/lib/services/context";
import { findTemplate, getTemplateJson, listTemplates, presentTemplate } from "@/lib/services/templates/templates";
import { freshDatabase } from "./support/database";
import { serviceContext } from "./support/service-context";

// The hot reads answer with JSON text written by the database (templateJson in
// lib/services/templates/templates.ts). It must be byte for byte what JSON.stringify(presentTemplate(row))
// gave: same keys, same order, same escaping, same timestamps, the manifest as stored.

let handle: DatabaseHandle;
let close: () => Promise<void>;
let ctx: ServiceContext;
const key = randomBytes(32);
const personal: OwnerScope = { kind: "personal", owner: "ann" };
const server: OwnerScope = { kind: "server", owner: null };

const awkward =
  'quote " backslash \\ slash / newline \n tab \t cr \r bs \b ff \f ctl \u0001\u001f del \u007f ls \u2028 ps \u2029 é 😀 </script>';
const manifestOf = (i: number) => ({
  version: "1",
  z_last: { b: 1, a: [true, false, null, 0, -1.5, 1e21, 0.1, "x"] },
  bank: { retain_mission: awkward, disposition_skepticism: i % 5 },
  "2": "integer-like key",
  mental_models: [{ source_query: "What?", name: "Open", id: `m${i}` }],
  empty: {},
  list: [],
});

beforeAll(async () => {
  const db = await freshDatabase();
  handle = db.handle;
  close = db.close;
  const app = { config: loadConfig({ DATA_DIR: "/nonexistent" }), db: handle.db, database: handle, secretKey: key };
  ctx = serviceContext(app, { type: "user", id: "ann", userId: "ann", role: "member", displayName: "Ann" });
  await handle.db.insert(users).values({ id: "ann", displayName: "Ann" });
  const rows: Array<typeof templates.$inferInsert> = [];
  for (let i = 0; i < 12; i++) {
    const odd = i % 2 === 1;
    for (const scope of [personal, server]) {
      rows.push({
        id: `t${String(i).padStart(2, "0")}${odd ? "-x.y_z" : ""}`,
        scope: scope.kind,
        owner: scope.owner,
        name: odd ? awkward : `Template ${i}`,
        description: odd ? null : `Line one\nline "two" ${awkward}`,
        category: i % 3 === 0 ? null : `cat ${i % 3}`,
        integrations: odd ? [] : ["slack", awkward],
        tags: i % 4 === 0 ? [] : ["t", `tag${i % 3}`, awkward],
        manifest: manifestOf(i),
        sourceName: odd ? "src" : null,
        sourceScope: odd ? "server" : null,
        sourceOwner: odd ? 'someone "quoted"' : null,
        sourceTemplateId: odd ? "orig" : null,
        sourceRevision: odd ? "rev-1" : null,
        locallyModified: i % 3 === 1,
        installedAt: new Date(Date.UTC(1999 + i, i, 1 + i, i, 59, 59, i * 83)),
        updatedAt: new Date(Date.UTC(2030, 11, 31, 23, 59, 59, 999 - i)),
      });
    }
  }
  await handle.db.insert(templates).values(rows);
});
afterAll(() => close());

/** What the answer was when it was built in JavaScript from drizzle rows. */
async function expectedList(scope: OwnerScope, ids: string[], limit: number | undefined, context: string) {
  const sorted = [...ids].sort();
  const page = limit === undefined ? sorted : sorted.slice(0, limit);
  const presented = [];
  for (const id of page) presented.push(presentTemplate((await findTemplate(handle.db, scope, id))!));
  if (limit === undefined) return JSON.stringify({ templates: presented });
  const more = sorted.length > limit;
  return JSON.stringify({ templates: presented, next_cursor: more ? encodeCursor(key, page.at(-1)!, context) : null });
}

describe.each([
  ["personal", personal],
  ["server", server],
] as const)("%s templates as JSON text", (_, scope) => {
  it("GET one template: byte for byte JSON.stringify(presentTemplate(row))", async () => {
    const rows = await handle.db.select().from(templates);
    for (const row of rows.filter((r) => r.scope === scope.kind)) {
      const json = await getTemplateJson(ctx, { scope, templateId: row.id });
      expect(json.text).toBe(JSON.stringify(presentTemplate((await findTemplate(handle.db, scope, row.id))!)));
      expect(Object.keys(json.value().manifest)).toEqual(Object.keys(manifestOf(0)));
    }
  });

  it("the list, whole and paged, with every filter: the same text and cursors", async () => {
    const all = (await handle.db.select().from(templates)).filter((r) => r.scope === scope.kind);
    const filters = [{}, { category: "cat 1" }, { tag: "tag2" }, { category: "cat 2", tag: "t" }, { tag: "none" }];
    for (const filter of filters) {
      const context = JSON.stringify([scope.kind, scope.owner, filter.category ?? null, filter.tag ?? null]);
      const ids = all
        .filter(
          (r) =>
            (filter.category === undefined || r.category === filter.category) && (filter.tag === undefined || r.tags.includes(filter.tag)),
        )
        .map((r) => r.id);
      expect((await listTemplates(ctx, { scope, query: filter })).text).toBe(await expectedList(scope, ids, undefined, context));
      for (const limit of [1, 3, 50]) {
        let remaining = [...ids].sort();
        let cursor: string | undefined;
        for (;;) {
          const page = await listTemplates(ctx, { scope, query: { ...filter, limit, cursor } });
          expect(page.text).toBe(await expectedList(scope, remaining, limit, context));
          const next = page.value().next_cursor;
          if (!next) break;
          remaining = remaining.slice(limit);
          cursor = next;
        }
      }
    }
  });
});
