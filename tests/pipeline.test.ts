import { describe, expect, it, vi } from "vitest";
import { errorToResponse } from "@/lib/http/problem";
import { ADMIN_TOKEN, fastPathSelected, request, useTestApp } from "./support/app";

const t = useTestApp();
const SOURCES = "/ext/svc/me/template-sources";

async function expectProblem(res: { status: number; headers: Headers; body: any }, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.body).toEqual(
    expect.objectContaining({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String) }),
  );
  expect(res.body.detail).not.toMatch(/\n\s+at /);
}

describe("request pipeline", () => {
  it("answers 400 for malformed JSON", async () => {
    const res = await request("POST", SOURCES, {
      token: ADMIN_TOKEN,
      rawBody: '{"url": ',
      headers: { "content-type": "application/json" },
    });
    await expectProblem(res, 400);
  });

  it("answers 400 for a JSON body that is not an object", async () => {
    for (const raw of ["[1,2]", '"text"', "42", "null"]) {
      const res = await request("POST", SOURCES, { token: ADMIN_TOKEN, rawBody: raw, headers: { "content-type": "application/json" } });
      await expectProblem(res, 400);
    }
  });

  it("answers 413 for a 2 MiB body", async () => {
    const big = JSON.stringify({ url: "https://example.com/x", pad: "a".repeat(2 * 1024 * 1024) });
    const res = await request("POST", SOURCES, { token: ADMIN_TOKEN, rawBody: big, headers: { "content-type": "application/json" } });
    await expectProblem(res, 413);
  });

  it("answers 413 for an oversized body streamed without a length", async () => {
    const chunk = new TextEncoder().encode("a".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 40) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const req = new Request(`http://localhost${SOURCES}`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    const { POST } = await import("@/app/ext/svc/me/template-sources/route");
    const res = await POST(req, { params: Promise.resolve({}) });
    expect(res.status).toBe(413);
  });

  it("answers 415 for text/plain", async () => {
    const res = await request("POST", SOURCES, {
      token: ADMIN_TOKEN,
      rawBody: '{"url":"https://example.com/x"}',
      headers: { "content-type": "text/plain" },
    });
    await expectProblem(res, 415);
  });

  it("reads application/json with parameters, and a body without Content-Type, as JSON", async () => {
    const withCharset = await request("POST", SOURCES, {
      token: ADMIN_TOKEN,
      rawBody: '{"url":"https://example.com/charset"}',
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(withCharset.status).toBe(201);
    const bare = new Request(`http://localhost${SOURCES}`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: new TextEncoder().encode('{"url":"https://example.com/bare"}'),
    });
    expect(bare.headers.get("content-type")).toBeNull();
    const { POST } = await import("@/app/ext/svc/me/template-sources/route");
    expect((await POST(bare, { params: Promise.resolve({}) })).status).toBe(201);
  });

  it("answers 422 for an unknown field, at its path", async () => {
    const res = await t.admin.post(SOURCES, { url: "https://example.com/y", extra: 1 });
    await expectProblem(res, 422);
    expect(res.body.errors).toEqual([{ path: "extra", message: expect.any(String) }]);
  });

  it("answers 405 with Allow for PUT on the sources collection", async () => {
    const res = await t.admin.put(SOURCES, {});
    await expectProblem(res, 405);
    expect(res.headers.get("allow")).toBe("GET, POST");
  });

  it("answers 405 before authenticating", async () => {
    const res = await request("PUT", `${SOURCES}/x`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, PATCH, DELETE");
  });

  it("answers 405 with the path's Allow to a request the server marked as of a method Next does not route (TRACE, PROPFIND)", async () => {
    // The server's front door (lib/server/front-door.cjs) passes such a request on as DELETE with
    // the client's method in the mark: through it (TEST_API_VIA=fast-path) the client's method is
    // sent, to the handler in process the mark it makes.
    for (const [path, allow] of [
      [SOURCES, "GET, POST"],
      [`${SOURCES}/x`, "GET, PATCH, DELETE"],
      ["/ext/svc/no-such-path", "GET, POST, PUT, PATCH, DELETE"],
    ]) {
      const res = fastPathSelected
        ? await request("PROPFIND", path!, { token: ADMIN_TOKEN })
        : await request("DELETE", path!, { token: ADMIN_TOKEN, headers: { "x-unsupported-method": "PROPFIND" } });
      await expectProblem(res, 405);
      expect(res.body.type).toBe("urn:bank-templates:problem:method-not-allowed");
      expect(res.headers.get("allow"), path).toBe(allow);
    }
    // Unmarked, DELETE is DELETE: the source is missing, not the method.
    expect((await request("DELETE", `${SOURCES}/x`, { token: ADMIN_TOKEN })).status).toBe(404);
  });

  it("turns an unexpected exception into an opaque 500 and one structured log line", async () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const res = errorToResponse(new Error("relation secret_table does not exist"), {
      method: "GET",
      path: "/ext/svc/x",
      requestId: "req-1",
    });
    const logged = write.mock.calls.map((c) => String(c[0]));
    write.mockRestore();
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toMatchObject({ status: 500, title: "Internal Server Error" });
    expect(JSON.stringify(body)).not.toContain("secret_table");
    expect(logged).toHaveLength(1);
    const line = JSON.parse(logged[0]!);
    expect(line).toMatchObject({ level: "error", method: "GET", path: "/ext/svc/x" });
    expect(line.error.message).toContain("secret_table");
  });

  it("keeps a well-formed X-Request-Id, makes one otherwise, and repeats it in problem bodies", async () => {
    const kept = await request("GET", "/ext/svc/me", { token: ADMIN_TOKEN, headers: { "x-request-id": "trace.42_a-b" } });
    expect(kept.status).toBe(200);
    expect(kept.headers.get("x-request-id")).toBe("trace.42_a-b");
    expect(kept.headers.get("x-content-type-options")).toBe("nosniff");
    const replaced = await request("GET", "/ext/svc/me/templates/none", { token: ADMIN_TOKEN, headers: { "x-request-id": "bad id!" } });
    expect(replaced.status).toBe(404);
    const id = replaced.headers.get("x-request-id");
    expect(id).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(id).not.toBe("bad id!");
    expect(replaced.body.request_id).toBe(id);
    const unauthenticated = await request("GET", "/ext/svc/me");
    expect(unauthenticated.body.request_id).toBe(unauthenticated.headers.get("x-request-id"));
  });

  it("gives distinct failure causes distinct problem types", async () => {
    const malformed = await request("POST", SOURCES, { token: ADMIN_TOKEN, rawBody: "{", headers: { "content-type": "application/json" } });
    const notObject = await request("POST", SOURCES, {
      token: ADMIN_TOKEN,
      rawBody: "[]",
      headers: { "content-type": "application/json" },
    });
    const invalid = await t.admin.post(SOURCES, { url: 42 });
    const types = [malformed, notObject, invalid].map((r) => r.body.type);
    expect(types).toEqual([
      "urn:bank-templates:problem:malformed-json",
      "urn:bank-templates:problem:body-not-object",
      "urn:bank-templates:problem:validation-failed",
    ]);
  });

  it("refuses U+0000 and unpaired surrogates in values and keys at their path, and stores nothing", async () => {
    const nul = await t.admin.post(SOURCES, { url: "https://example.com/nul", alias: "a\u0000b" });
    await expectProblem(nul, 422);
    expect(nul.body.type).toBe("urn:bank-templates:problem:invalid-characters");
    expect(nul.body.errors).toEqual([{ path: "alias", message: expect.any(String) }]);
    const surrogate = await request("POST", SOURCES, {
      token: ADMIN_TOKEN,
      rawBody: '{"url":"https://example.com/s","alias":"x\\ud800y"}',
      headers: { "content-type": "application/json" },
    });
    await expectProblem(surrogate, 422);
    expect(surrogate.body.errors[0].path).toBe("alias");
    const key = await t.admin.post(SOURCES, { url: "https://example.com/k", "bad\u0000key": 1 });
    await expectProblem(key, 422);
    expect(key.body.errors[0].path).toBe("bad\u0000key");
    const query = await t.admin.get("/ext/svc/me/templates?category=%00");
    await expectProblem(query, 422);
    expect(query.body.errors[0].path).toBe("category");
    const listed = await t.admin.get(SOURCES);
    expect(listed.body.map((s: { url: string }) => s.url)).not.toContain("https://example.com/nul");
  });

  it("answers 400 for a body nested deeper than 64 levels, and takes 64", async () => {
    const deep = (n: number) => `{"url":"https://example.com/deep","description":${"[".repeat(n)}${"]".repeat(n)}}`;
    const tooDeep = await request("POST", SOURCES, {
      token: ADMIN_TOKEN,
      rawBody: deep(1400),
      headers: { "content-type": "application/json" },
    });
    await expectProblem(tooDeep, 400);
    expect(tooDeep.body.type).toBe("urn:bank-templates:problem:body-too-deep");
    const deepest = await request("POST", SOURCES, {
      token: ADMIN_TOKEN,
      rawBody: deep(63),
      headers: { "content-type": "application/json" },
    });
    expect(deepest.status).toBe(422); // parsed and validated: description must be a string
  });

  it("answers 400 problem+json for a path with invalid percent-encoding, even without credentials", async () => {
    const req = new Request("http://localhost/ext/svc/me/templates/%ff");
    const { GET } = await import("@/app/ext/svc/me/templates/[template_id]/route");
    const res = await GET(req, { params: Promise.resolve({ template_id: "%ff" }) });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await res.json()).type).toBe("urn:bank-templates:problem:invalid-path-encoding");
  });

  it("treats null for an optional field of a POST body as absent", async () => {
    const res = await t.admin.post(SOURCES, { url: "https://example.com/nulls", alias: null, auth_token: null });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "nulls", has_auth: false });
  });

  it("answers /healthz and /readyz", async () => {
    expect((await request("GET", "/healthz")).status).toBe(200);
    expect((await request("GET", "/readyz")).status).toBe(200);
  });
});
