import { describe, expect, it } from "vitest";
import { as, request, useTestApp } from "./support/app";
import { sampleRequests } from "./support/endpoints";

const t = useTestApp();
const protectedRequests = sampleRequests().filter((r) => r.endpoint.access !== "public");

describe("authentication on every endpoint", () => {
  it("covers a sizeable contract", () => {
    expect(protectedRequests.length).toBeGreaterThan(20);
  });

  it.each(protectedRequests.map((r) => [`${r.method} ${r.path}`, r] as const))(
    "%s answers 401 with WWW-Authenticate without a token, with a wrong one and with a revoked one",
    async (_, r) => {
      const member = await t.user(`u${Math.random().toString(36).slice(2, 10)}`);
      const key = await member.post("/ext/svc/me/api-keys", {});
      await member.delete(`/ext/svc/me/api-keys/${key.body.id}`);
      for (const token of [null, "hbk_wrongwrongwrongwrongwrongwrongwrongwrongwro", key.body.token, "not a bearer"]) {
        const res = await request(r.method, r.path, { token, body: r.endpoint.body ? {} : undefined });
        expect(res.status, `token ${token}`).toBe(401);
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
      }
      const basic = await request(r.method, r.path, { headers: { authorization: "Basic YWRtaW46YWRtaW4=" } });
      expect(basic.status).toBe(401);
    },
  );
});

describe("authorization", () => {
  const adminRequests = protectedRequests.filter((r) => r.path.startsWith("/ext/svc/admin"));

  it("puts every /ext/svc/admin endpoint behind the admin role", () => {
    expect(adminRequests.length).toBeGreaterThan(5);
    expect(adminRequests.every((r) => r.endpoint.access === "admin")).toBe(true);
  });

  it.each(adminRequests.map((r) => [`${r.method} ${r.path}`, r] as const))(
    "%s answers 403 to a member and its service account",
    async (_, r) => {
      const id = `m${Math.random().toString(36).slice(2, 10)}`;
      const member = await t.user(id);
      await member.post("/ext/svc/me/service-accounts", { id: "bot" });
      const bot = as((await member.post("/ext/svc/me/service-accounts/bot/api-keys", {})).body.token);
      for (const client of [member, bot]) {
        const res = await request(r.method, r.path, { token: client.token, body: r.endpoint.body ? {} : undefined });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ status: 403, title: "Forbidden" });
      }
    },
  );

  it("answers 401 for unknown paths without credentials and 404 with them", async () => {
    expect((await request("GET", "/ext/svc/nothing/here")).status).toBe(401);
    const res = await t.admin.get("/ext/svc/nothing/here");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await t.admin.get("/ext/svc/me/template-sources/a/b/c")).status).toBe(404);
  });
});
