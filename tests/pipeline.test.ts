import { describe, expect, it, vi } from "vitest";
import { request, useTestApp, ADMIN_TOKEN } from "./support/app";
import { errorToResponse } from "@/lib/http/problem";

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
    const res = await request("POST", SOURCES, { token: ADMIN_TOKEN, rawBody: '{"url": ', headers: { "content-type": "application/json" } });
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
    const res = await request("POST", SOURCES, { token: ADMIN_TOKEN, rawBody: '{"url":"https://example.com/x"}', headers: { "content-type": "text/plain" } });
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
    const res = await request("PATCH", `${SOURCES}/x`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("DELETE");
  });

  it("turns an unexpected exception into an opaque 500 and one structured log line", async () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const res = errorToResponse(new Error("relation secret_table does not exist"), { method: "GET", path: "/ext/svc/x", requestId: "req-1" });
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

  it("answers /healthz and /readyz", async () => {
    expect((await request("GET", "/healthz")).status).toBe(200);
    expect((await request("GET", "/readyz")).status).toBe(200);
  });
});
