import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { createBankTemplatesClient, isPreconditionFailed } from "@/client";
import { PROBLEM_TYPES, type ProblemType, problemTypeUri } from "@/lib/contracts/problem-types";
import { CLIENT_SCHEMA_PATH, generateClientSchema } from "@/lib/contracts/registry/client-schema";
import { listEndpoints } from "@/lib/contracts/registry/endpoints";
import { addStrategyOverride, connect, installFromMarketplace, pollTemplate, updateAndApply } from "./client-sample/program";
import { ADMIN_TOKEN, request, useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { type ServedApp, serveApp } from "./support/http-app";
import { useMarketplace } from "./support/use-marketplace";

// Issue 12: programs use the typed client in client/, generated from the served OpenAPI document.
const t = useTestApp();
const market = useMarketplace(t);
let app: ServedApp;

beforeAll(async () => {
  app = await serveApp();
});
afterAll(() => app?.close());

const servedDocument = async () => (await request("GET", "/ext/svc/openapi.json")).body;

describe("the OpenAPI document, as generated clients read it", () => {
  it("types every yes/no query parameter as a boolean", async () => {
    const doc = await servedDocument();
    const flags: string[] = [];
    for (const endpoint of listEndpoints()) {
      for (const [name, field] of Object.entries((endpoint.query?.shape ?? {}) as Record<string, z.ZodType>)) {
        // A parameter that reads the text "true" as the boolean true is a flag.
        if (field.safeParse("true").data !== true) continue;
        const parameters = doc.paths[endpoint.path][endpoint.method.toLowerCase()].parameters as { name: string; schema: unknown }[];
        expect(parameters.find((p) => p.name === name)?.schema, `${endpoint.method} ${endpoint.path} ?${name}`).toMatchObject({
          type: "boolean",
          default: false,
        });
        flags.push(name);
      }
    }
    expect(new Set(flags)).toEqual(new Set(["force", "dry_run", "refresh", "merge"]));
  });

  it("lets POST and PUT bodies send null for optional fields (CONTRACT §10), and a template PATCH every field (§15)", async () => {
    const schemas = (await servedDocument()).components.schemas;
    const nullable = { anyOf: expect.arrayContaining([{ type: "null" }]) };
    expect(schemas.CreateBankRequest.properties.name).toMatchObject(nullable);
    expect(schemas.CreateSourceRequest.properties).toMatchObject({ alias: nullable, auth_token: nullable });
    expect(schemas.InstallTemplateRequest.properties).toMatchObject({ alias_id: nullable, source_scope: nullable });
    expect(schemas.CreateTemplateRequest.properties).toMatchObject({ integrations: nullable, tags: nullable });
    expect(schemas.CreateBankRequest.properties.bank_id).toEqual({ type: "string", pattern: expect.any(String) });
    for (const field of ["name", "description", "category", "integrations", "tags", "manifest"]) {
      expect(schemas.PatchTemplateRequest.properties[field], field).toMatchObject(nullable);
    }
    expect(schemas.UpdateUserRequest.properties.display_name).not.toHaveProperty("anyOf");
  });

  it("gives every request body an example its endpoint accepts", async () => {
    const doc = await servedDocument();
    for (const endpoint of listEndpoints().filter((e) => e.body)) {
      const label = `${endpoint.method} ${endpoint.path}`;
      const example = doc.paths[endpoint.path][endpoint.method.toLowerCase()].requestBody.content["application/json"].example;
      expect(example, label).toBeDefined();
      expect(endpoint.body!.safeParse(example).error, label).toBeUndefined();
    }
  });

  it("lists every problem type the API answers with", async () => {
    const schemas = (await servedDocument()).components.schemas;
    expect(schemas.Problem.properties.type).toEqual({ $ref: "#/components/schemas/ProblemType" });
    expect(schemas.ProblemType.enum).toEqual((Object.keys(PROBLEM_TYPES) as ProblemType[]).map(problemTypeUri));
  });
});

describe("the typed client (client/)", () => {
  it("holds the types openapi-typescript generates from the served document", async () => {
    const generated = await generateClientSchema(await servedDocument());
    const committed = readFileSync(CLIENT_SCHEMA_PATH, "utf8");
    expect(committed, "client/schema.d.ts is not the document's: run `npm run client:generate` and commit it").toBe(generated);
  });

  it("type-checks the sample program, and refuses calls the API refuses", () => {
    const root = path.resolve(__dirname, "..");
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(root, "tsconfig.json"),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
        },
      },
    )!;
    const files = ["program.ts", "misuse.ts"].map((name) => path.join(__dirname, "client-sample", name));
    // The project's compiler options, on the sample alone: no incremental state, no ambient @types.
    const program = ts.createProgram(files, { ...config.options, incremental: false, noEmit: true, types: [], plugins: [] });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${path.relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(diagnostics).toEqual([]);
  }, 60_000);

  it("runs the sample program against the app over HTTP: source, install, update with force, bank, policy", async () => {
    const member = await t.user("prog");
    const client = connect(app.url, member.token!);
    market.setFile("/acme/templates.json", catalog(catalogEntry("notes-bot")));

    const { source, template } = await installFromMarketplace(client, {
      marketplaceUrl: `${market.url}/acme`,
      sourceName: "acme",
      templateId: "notes-bot",
    });
    expect(source).toMatchObject({ name: "acme", scope: "personal", owner: "prog", has_auth: false });
    expect(template).toMatchObject({ id: "notes-bot", source_name: "acme", source_scope: "personal", locally_modified: false });

    market.setFile("/acme/templates.json", catalog(catalogEntry("notes-bot", { description: "Upstream v2" })));
    const { update, bank, policy } = await updateAndApply(client, { templateId: "notes-bot", bankId: "prog:notes" });

    expect(update).toMatchObject({ updated: true, previous_revision: template.source_revision });
    expect(update.new_revision).not.toBe(template.source_revision);
    expect(update.template.description).toBe("Upstream v2");
    expect(bank).toMatchObject({
      bank_id: "prog:notes",
      template: "personal/notes-bot",
      bank_created: true,
      import_result: { dry_run: false, config_applied: true, mental_models_created: ["open-questions", "decisions"] },
    });
    expect(policy).toEqual({
      bank_id: "prog:notes",
      document: {
        version: "2026-03-24",
        default_strategy: "balanced",
        strategy_overrides: [{ scope: "channel", value: "incidents", strategy: "thorough" }],
        public_access: { default: { actions: ["bank:recall"], recall_budget: "low", recall_max_tokens: null } },
      },
    });

    // `name: null` counted as absent: the new bank is named after its id.
    const created = await client.GET("/ext/svc/banks/{bank_id}", { params: { path: { bank_id: "prog:notes" } } });
    expect(created.data).toMatchObject({ name: "prog:notes", owner: "prog", last_applied: { template: "personal/notes-bot" } });
  });

  it("answers a failure as a typed problem", async () => {
    const client = connect(app.url, "not-a-key");
    const { data, error, response } = await client.GET("/ext/svc/me");
    expect(data).toBeUndefined();
    expect(response.status).toBe(401);
    expect(error?.type).toBe(problemTypeUri("unauthorized"));
  });

  describe("conditional requests (CONTRACT §19)", () => {
    const policyPath = "/ext/svc/banks/{bank_id}/policy" as const;
    const document = (strategy: string) => ({ version: "2026-03-24" as const, default_strategy: strategy });

    it("answers every call's ETag, a 304 as not modified (no error), and a stale ifMatch as a typed precondition failure with the current ETag", async () => {
      const client = connect(app.url, ADMIN_TOKEN);
      const params = { path: { bank_id: "sdk:etags" } };

      const created = await client.PUT(policyPath, { params, body: { document: document("balanced") }, ifNoneMatch: "*" });
      expect(created.response.status).toBe(200);
      expect(created.etag).toMatch(/^"[\w-]+"$/);
      const createdAgain = await client.PUT(policyPath, { params, body: { document: document("fast") }, ifNoneMatch: "*" });
      expect(isPreconditionFailed(createdAgain)).toBe(true);
      expect(createdAgain.etag).toBe(created.etag);

      const read = await client.GET(policyPath, { params });
      expect(read.etag).toBe(created.etag);
      const polled = await client.GET(policyPath, { params, ifNoneMatch: read.etag });
      expect(polled).toMatchObject({ notModified: true, etag: read.etag });
      expect([polled.data, polled.error, polled.response.status]).toEqual([undefined, undefined, 304]);

      // Someone else writes from the same read first; the second write from it is refused.
      const theirs = await client.PUT(policyPath, { params, body: { document: document("thorough") }, ifMatch: read.etag });
      expect(theirs.data?.document.default_strategy).toBe("thorough");
      expect(theirs.etag).not.toBe(read.etag);
      const mine = await client.PUT(policyPath, { params, body: { document: document("fast") }, ifMatch: read.etag });
      expect(isPreconditionFailed(mine)).toBe(true);
      expect(mine.data).toBeUndefined();
      expect(mine).toMatchObject({ etag: theirs.etag, error: { type: problemTypeUri("precondition-failed"), status: 412 } });
      expect(mine.response.status).toBe(412);

      const now = await client.GET(policyPath, { params, ifNoneMatch: read.etag });
      expect(now.notModified).toBeFalsy();
      expect(now).toMatchObject({ etag: theirs.etag, data: { document: { default_strategy: "thorough" } } });
      // The headers given as openapi-fetch takes them work as well.
      const raw = await client.GET(policyPath, { params: { ...params, header: { "If-None-Match": theirs.etag! } } });
      expect(raw).toMatchObject({ notModified: true, etag: theirs.etag });
      expect(isPreconditionFailed(now)).toBe(false);
    });

    it("runs the README's read-modify-write: a write that lost the race reads again and keeps the other change", async () => {
      const params = { path: { bank_id: "sdk:retry" } };
      const other = connect(app.url, ADMIN_TOKEN);
      await other.PUT(policyPath, { params, body: { document: { ...document("balanced"), strategy_overrides: [] } } });
      // Another program changes the policy between our first read and our first write.
      let raced = false;
      const client = createBankTemplatesClient({
        baseUrl: app.url,
        apiKey: ADMIN_TOKEN,
        fetch: async (request) => {
          if (request.method === "PUT" && !raced) {
            raced = true;
            const override = { scope: "channel" as const, value: "alerts", strategy: "fast" };
            const theirs = await other.PUT(policyPath, {
              params,
              body: { document: { ...document("balanced"), strategy_overrides: [override] } },
            });
            expect(theirs.response.status).toBe(200);
          }
          return fetch(request);
        },
      });

      const done = await addStrategyOverride(client, "sdk:retry", { scope: "channel", value: "incidents", strategy: "thorough" });
      expect(done.conflicts).toBe(1);
      expect(done.policy.document.strategy_overrides?.map((o) => o.value)).toEqual(["alerts", "incidents"]);
      expect((await client.GET(policyPath, { params })).etag).toBe(done.etag);
    });

    it("lets a poller read a template again only when it changed", async () => {
      const client = connect(app.url, (await t.user("poller")).token!);
      const created = await client.POST("/ext/svc/me/templates", {
        body: { id: "polled", name: "Polled", manifest: manifest() as never },
      });
      expect(created.error).toBeUndefined();

      const first = await pollTemplate(client, "polled", undefined);
      expect(first).toMatchObject({ changed: true, template: { id: "polled" } });
      expect(await pollTemplate(client, "polled", first.etag)).toEqual({ changed: false, etag: first.etag });

      const patched = await client.PATCH("/ext/svc/me/templates/{template_id}", {
        params: { path: { template_id: "polled" } },
        body: { description: "Changed" },
        ifMatch: first.etag,
      });
      expect(patched.response.status).toBe(200);
      const after = await pollTemplate(client, "polled", first.etag);
      expect(after).toMatchObject({ changed: true, template: { description: "Changed" }, etag: patched.etag });
    });
  });
});
