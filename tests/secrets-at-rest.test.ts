/**
 * CONTRACT §19, no secret lingers: an answer an Idempotency-Key stores (§18) holds no secret in
 * clear. An API key's token is shown in the first answer only; a replay answers it null, before
 * and after the key is revoked, and the token is nowhere in the database: not in any row (both
 * databases) and, on PGlite, not in the data directory's files after a checkpoint.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { CreatedApiKey } from "@/lib/contracts/identity/schemas";
import { listEndpoints } from "@/lib/contracts/registry/endpoints";
import { shownOnceFields } from "@/lib/contracts/shown-once";
import { type Client, request, useTestApp } from "./support/app";

const t = useTestApp();
let alice: Client;

beforeAll(async () => {
  alice = await t.user("alice");
  expect((await alice.post("/ext/svc/me/service-accounts", { id: "deployer" })).status).toBe(201);
});

/** Every row of every table of the database, as text: what a dump of its data would hold. */
async function everyRow(): Promise<string> {
  const tables = await t.app.db.execute(
    sql`select quote_ident(table_schema) || '.' || quote_ident(table_name) as name from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
  );
  const names = (tables as unknown as { rows?: { name: string }[] }).rows ?? (tables as unknown as { name: string }[]);
  expect(names.map((table) => table.name)).toContain("public.idempotency_keys");
  const dumped: string[] = [];
  for (const { name } of names) dumped.push(JSON.stringify(await t.app.db.execute(sql.raw(`select t::text from ${name} as t`))));
  return dumped.join("\n");
}

/** PGlite: the bytes of its whole data directory (tables, WAL) after a checkpoint wrote every page out. */
async function dataFiles(): Promise<Buffer> {
  await t.app.db.execute(sql`checkpoint`);
  const client = (t.app.db as unknown as { $client: { dumpDataDir(compression: "none"): Promise<Blob> } }).$client;
  return Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer());
}

const OWNERS = [
  { who: "a user's own key", path: "/ext/svc/me/api-keys", as: () => alice },
  { who: "a service account's key", path: "/ext/svc/me/service-accounts/deployer/api-keys", as: () => alice },
  { who: "an admin's key for a user", path: "/ext/svc/admin/users/alice/api-keys", as: () => t.admin },
];

describe.each(OWNERS)("$who created with an Idempotency-Key", ({ path, as }) => {
  const idempotencyKey = `create-${path.replaceAll("/", "-")}`;
  // Stored in clear beside the token (in the key's row, its audit entry and the stored answer):
  // finding it proves the search reads what the database holds.
  const description = `marker${path.length}x${Date.now()}`;
  const create = () => as().send("POST", path, { description }, { "idempotency-key": idempotencyKey });
  let token: string;
  let keyId: string;

  it("answers the token once; a replay answers the same key with its token null, valid by the schema", async () => {
    const first = await create();
    expect(first.status, first.text).toBe(201);
    token = first.body.token;
    keyId = first.body.id;
    expect(token).toMatch(/^\S{40,}$/);
    expect((await request("GET", "/ext/svc/me", { token })).status).toBe(200);

    const again = await create();
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual({ ...first.body, token: null });
    expect(again.text).not.toContain(token);
    expect(CreatedApiKey.parse(again.body)).toEqual(again.body);
  });

  it("leaves the token in no row of the database", async () => {
    const rows = await everyRow();
    expect(rows).toContain(description);
    expect(rows).not.toContain(token);
  });

  it.runIf(process.env.TEST_DB !== "postgres")("leaves the token in none of PGlite's data files", async () => {
    const files = await dataFiles();
    expect(files.includes(description)).toBe(true);
    expect(files.includes(token)).toBe(false);
  });

  it("hands out no working token after the key is revoked either", async () => {
    expect((await as().delete(`${path}/${keyId}`)).status).toBe(204);
    const replay = await create();
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.token).toBeNull();
    expect(replay.text).not.toContain(token);
    expect((await request("GET", "/ext/svc/me", { token })).status).toBe(401);
  });
});

describe("the secrets an answer shows once", () => {
  it("are marked in the answer's schema: the token of each endpoint that creates a key, a webhook's secret, nothing else", () => {
    const marked = listEndpoints()
      .filter((endpoint) => shownOnceFields(endpoint.response).length > 0)
      .map((endpoint) => `${endpoint.method} ${endpoint.path} ${shownOnceFields(endpoint.response).join(",")}`);
    expect(marked.sort()).toEqual(
      [
        "POST /ext/svc/admin/users/{user_id}/api-keys token",
        "POST /ext/svc/me/api-keys token",
        "POST /ext/svc/me/service-accounts/{sa_id}/api-keys token",
        "POST /ext/svc/admin/webhooks secret",
        "POST /ext/svc/admin/webhooks/{webhook_id}/rotate-secret secret",
        "POST /ext/svc/me/webhooks secret",
        "POST /ext/svc/me/webhooks/{webhook_id}/rotate-secret secret",
      ].sort(),
    );
  });

  it("include every text an answer holds under a secret's name (a token, a secret, a password)", () => {
    const secretName = /(^|_)(token|secret|password)$/;
    const unmarked = listEndpoints().flatMap((endpoint) => {
      const response = endpoint.response;
      if (!(response instanceof z.ZodObject)) return [];
      const marked = shownOnceFields(response);
      // A text under such a name (not `has_password`, a flag).
      return Object.entries(response.shape as Record<string, z.ZodType>)
        .filter(([field, schema]) => secretName.test(field) && schema.safeParse("text").success && !marked.includes(field))
        .map(([field]) => `${endpoint.method} ${endpoint.path} ${field}`);
    });
    expect(unmarked).toEqual([]);
  });

  it("are documented in the OpenAPI document, as null in a replay", async () => {
    const doc = (await request("GET", "/ext/svc/openapi.json")).body;
    const token = doc.components.schemas.CreatedApiKey.properties.token;
    expect(token["x-shown-once"]).toBe(true);
    expect(token.type).toEqual(["string", "null"]);
    expect(token.description).toContain("replay");
  });
});
