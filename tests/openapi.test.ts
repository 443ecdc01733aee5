import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { listEndpoints } from "@/lib/contracts/registry/endpoints";
import { PING_EVENT, WEBHOOK_EVENT_TYPES } from "@/lib/contracts/webhooks/events";
import { request, useTestApp } from "./support/app";
import { resolveRoute } from "./support/router";

useTestApp();

function routeFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) routeFiles(full, out);
    else if (name === "route.ts") out.push(full);
  }
  return out;
}

describe("OpenAPI document", () => {
  it("is served without authentication and is valid OpenAPI 3.1", async () => {
    const res = await request("GET", "/ext/svc/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("documents every webhook delivery (CONTRACT §20): a body schema per event type, and the signature headers", async () => {
    const doc = (await request("GET", "/ext/svc/openapi.json")).body;
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES, PING_EVENT].sort());
    const updated = doc.webhooks["template.updated"].post;
    expect(updated.parameters.map((p: { name: string }) => p.name)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
    const body = updated.requestBody.content["application/json"].schema.$ref.split("/").pop();
    expect(doc.components.schemas[body].properties.data).toEqual({ $ref: "#/components/schemas/Template" });
  });

  it("documents conditional requests (CONTRACT §19): ETag and 304 on every read, If-Match and 412 on every write to one resource", async () => {
    const doc = (await request("GET", "/ext/svc/openapi.json")).body;
    const headerNames = (op: { parameters?: { $ref?: string; in?: string; name?: string }[] }) =>
      (op.parameters ?? []).map((p) => (p.$ref ? doc.components.parameters[p.$ref.split("/").pop()!] : p)).map((p) => p.name);
    let reads = 0;
    let writes = 0;
    for (const endpoint of listEndpoints()) {
      const op = doc.paths[endpoint.path][endpoint.method.toLowerCase()];
      const where = `${endpoint.method} ${endpoint.path}`;
      if (endpoint.method === "GET" && endpoint.response && !endpoint.stream) {
        reads++;
        expect(op.responses["304"], where).toBeDefined();
        expect(op.responses["200"].headers?.ETag, where).toBeDefined();
        expect(headerNames(op), where).toContain("If-None-Match");
      }
      if (endpoint.conditional) {
        writes++;
        expect(op.responses["412"].content["application/problem+json"], where).toBeDefined();
        expect(headerNames(op), where).toContain("If-Match");
        if (endpoint.conditional === "if-match-or-create") expect(headerNames(op), where).toContain("If-None-Match");
      }
    }
    // Every read of one resource and every write to one (the lists of CONTRACT §19).
    expect(reads).toBeGreaterThan(30);
    // 20 of the first writes, 6 bank edits and restore (§21), 6 webhook writes (§20).
    expect(writes).toBe(32);
  });

  it("documents every endpoint with its bearer security, success and error responses", async () => {
    const doc = (await request("GET", "/ext/svc/openapi.json")).body;
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    for (const endpoint of listEndpoints()) {
      const op = doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
      expect(op, `${endpoint.method} ${endpoint.path}`).toBeDefined();
      expect(op.responses[String(endpoint.status)]).toBeDefined();
      if (endpoint.access !== "public") {
        expect(op.security).toEqual([{ bearer: [] }]);
        expect(op.responses["401"].content["application/problem+json"]).toBeDefined();
      }
    }
  });

  it("matches the route files: every contract endpoint has a handler and every handler is in the contract", async () => {
    const documented = new Set(listEndpoints().map((e) => `${e.method} ${e.path}`));
    // A static path a documented template also matches is documented by it: GET /banks/rollout is
    // GET /banks/{bank_id} for the bank of that id (the rollout route borrows the bank's handler).
    const templates = listEndpoints().map((e) => ({
      method: e.method,
      pattern: new RegExp(`^${e.path.replace(/\{[^}]+\}/g, "[^/{}]+")}$`),
    }));
    const isDocumented = (method: string, apiPath: string) =>
      documented.has(`${method} ${apiPath}`) ||
      (!apiPath.includes("{") && templates.some((t) => t.method === method && t.pattern.test(apiPath)));
    for (const endpoint of listEndpoints()) {
      const resolved = resolveRoute(endpoint.path.replace(/\{[^}]+\}/g, "x"));
      expect(resolved?.file, endpoint.path).not.toMatch(/\[\.\.\.unknown\]/);
    }
    const svcDir = path.resolve(__dirname, "../app/ext/svc");
    for (const file of routeFiles(svcDir)) {
      const rel = path.relative(svcDir, path.dirname(file)).split(path.sep).filter(Boolean);
      if (rel[0] === "[...unknown]" || rel[0] === "openapi.json") continue;
      const apiPath = `/ext/svc/${rel.map((s) => s.replace(/^\[(.+)\]$/, "{$1}")).join("/")}`;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const res = await request(method, apiPath.replace(/\{[^}]+\}/g, "x"));
        if (res.status !== 405) expect(isDocumented(method, apiPath.replace(/\/$/, "")), `${method} ${apiPath}`).toBe(true);
      }
    }
  });
});
