import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_ADMIN_TOKEN, E2E_PORT } from "./support/env";
import { createScratchDatabase, type ScratchDatabase, ServerProcess } from "./support/server-process";

// The production server's edge (lib/server/http-server.cjs, CONTRACT §18): bodies judged as they
// arrive, slow clients cut off, malformed paths answered, all before the app reads anything.

const ROOT = path.join(__dirname, "..");
const MiB = 1024 * 1024;
const SOURCES = "/ext/svc/me/template-sources";

interface RawAnswer {
  /** The status line's code, or null when the connection closed without an answer. */
  status: number | null;
  text: string;
  /** Milliseconds from connecting to the connection's close. */
  closedAfter: number;
}

/** Whether `text` holds a whole HTTP/1.1 answer: its head and, chunked or of a declared length, its body. */
function isWholeAnswer(text: string): boolean {
  const end = text.indexOf("\r\n\r\n");
  if (end === -1) return false;
  const head = text.slice(0, end).toLowerCase();
  const body = text.slice(end + 4);
  if (head.includes("transfer-encoding: chunked")) return body.endsWith("0\r\n\r\n");
  const length = /content-length: (\d+)/.exec(head)?.[1];
  return Buffer.byteLength(body) >= Number(length ?? 0);
}

/**
 * Writes `head` on a new connection, then `drip` once a second (when given) until the server
 * closes the connection or `answerOnly` and an answer arrived; what came back.
 */
function rawExchange(port: number, head: string, options: { drip?: string; answerOnly?: boolean } = {}): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearInterval(timer);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      resolve({ status: status ? Number(status) : null, text, closedAfter: Date.now() - started });
    };
    socket.on("data", (chunk) => {
      text += chunk;
      if (options.answerOnly && isWholeAnswer(text)) socket.destroy();
    });
    socket.on("close", finish);
    socket.on("error", () => {});
    socket.write(head);
    const drip = options.drip;
    if (drip !== undefined) timer = setInterval(() => socket.writable && socket.write(drip), 1_000);
  });
}

const requestHead = (method: string, target: string, headers: Record<string, string | number>) =>
  `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;

const authorized = { authorization: `Bearer ${E2E_ADMIN_TOKEN}`, "content-type": "application/json" };

test.describe("bodies judged as they arrive", () => {
  test("a declared body over 1 MiB answers 413 before any of it is sent, anonymous callers 401", async () => {
    const declared = { "content-length": 10 * 1024 * MiB };
    // No byte of the 10 GiB follows: an answer at all shows none was waited for.
    const tooLarge = await rawExchange(E2E_PORT, requestHead("POST", SOURCES, { ...authorized, ...declared }), { answerOnly: true });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.text).toContain("application/problem+json");
    expect(tooLarge.text).toContain("urn:bank-templates:problem:payload-too-large");
    expect(tooLarge.text).toMatch(/x-request-id: \S+/i);

    const anonymous = await rawExchange(E2E_PORT, requestHead("POST", SOURCES, { "content-type": "application/json", ...declared }), {
      answerOnly: true,
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).toContain("application/problem+json");

    // Outside the API (next-auth, console pages) the server refuses it itself, plainly.
    for (const target of ["/api/auth/callback/credentials", "/signin"]) {
      const page = await rawExchange(E2E_PORT, requestHead("POST", target, declared), { answerOnly: true });
      expect(page.status, target).toBe(413);
    }
  });

  test("a chunked body is cut off at 1 MiB with 413", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: "127.0.0.1", port: E2E_PORT, method: "POST", path: SOURCES, headers: { ...authorized, "transfer-encoding": "chunked" } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on("error", reject);
      // 3 MiB in 64 KiB chunks, written as the server takes them; it answers before the end.
      const chunk = Buffer.alloc(64 * 1024, " ");
      let sent = 0;
      const pump = () => {
        while (sent < 48) {
          sent++;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        req.end();
      };
      pump();
    });
    expect(status).toBe(413);
  });

  test("paths with malformed percent-encoding answer 400, outside the API too", async ({ request }) => {
    const api = await request.get("/ext/svc/templates/%ff/x", { headers: { authorization: authorized.authorization } });
    expect(api.status()).toBe(400);
    expect(await api.json()).toMatchObject({ type: "urn:bank-templates:problem:invalid-path-encoding", status: 400 });
    for (const target of ["/sources/%ff", "/api/auth/%zz", "/templates/%c3%28"]) {
      expect((await request.get(target, { maxRedirects: 0 })).status(), target).toBe(400);
    }
  });

  test("health endpoints carry a request id and nosniff without the middleware", async ({ request }) => {
    for (const target of ["/healthz", "/readyz", "/metrics"]) {
      const res = await request.get(target, { headers: { "x-request-id": `edge-${target.slice(1)}` } });
      expect(res.headers()["x-request-id"], target).toBe(`edge-${target.slice(1)}`);
      expect(res.headers()["x-content-type-options"], target).toBe("nosniff");
    }
  });
});

test.describe("slow clients", () => {
  test("headers must arrive within 10 s and the whole body within 30 s", async () => {
    test.setTimeout(60_000);
    const [headers, body] = await Promise.all([
      // A header line a second, never the blank line that ends them.
      rawExchange(E2E_PORT, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n", { drip: "X-Slow: yes\r\n" }),
      // Authenticated, so the body is read: a byte a second of a declared 1,000.
      rawExchange(E2E_PORT, requestHead("POST", SOURCES, { ...authorized, "content-length": 1000 }), { drip: " " }),
    ]);
    expect(headers.status).toBe(408);
    expect(headers.closedAfter).toBeGreaterThanOrEqual(9_500);
    expect(headers.closedAfter).toBeLessThan(13_000);
    expect(body.closedAfter).toBeGreaterThanOrEqual(29_500);
    expect(body.closedAfter).toBeLessThan(34_000);
    // Node answers 408 when nothing was answered yet; the app never got a whole body to answer.
    expect(body.status === 408 || body.status === null, body.text).toBe(true);
  });
});

/** The built server itself (not npm start's launcher, so its pid is the server's) on 127.0.0.1, with the embedded database in `dataDir`. */
function standaloneServer(port: number, dataDir: string, env: Record<string, string>): ServerProcess {
  return new ServerProcess(
    port,
    {},
    {
      program: process.execPath,
      args: [path.join(ROOT, ".next", "standalone", "server.js")],
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: "", SECRET_KEY: "", DATA_DIR: dataDir, PORT: String(port), HOSTNAME: "127.0.0.1", ...env },
    },
  );
}

/** The resident memory of process `pid`, in MiB. */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

test("200 concurrent anonymous 10 MB bodies raise the server's memory by less than 300 MB, which it gives back", async () => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bank-templates-edge-"));
  // The server itself, so its pid is the one whose memory counts.
  const port = E2E_PORT + 7;
  // 200 clients from one address: past the per-address connection cap, which is not what this measures.
  const server = standaloneServer(port, dataDir, { LOG_LEVEL: "warn", MAX_CONNECTIONS_PER_ADDRESS: "1000" });
  try {
    await server.start();
    const pid = server.pid!;
    const before = rssMiB(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
    const body = Buffer.alloc(10 * MiB, "a");
    const statuses = await Promise.all(
      Array.from(
        { length: 200 },
        () =>
          new Promise<string>((resolve) => {
            const req = http.request(
              {
                host: "127.0.0.1",
                port,
                method: "POST",
                path: SOURCES,
                headers: { "content-type": "application/json", "content-length": body.length },
              },
              (res) => {
                res.resume();
                resolve(String(res.statusCode));
              },
            );
            // The server may answer and close before all 10 MB are written: that is the point.
            req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
            req.end(body);
          }),
      ),
    );
    clearInterval(sampler);
    expect(statuses.filter((s) => s === "401").length, statuses.join(" ")).toBeGreaterThan(150);
    expect(
      statuses.every((s) => s === "401" || s === "EPIPE" || s === "ECONNRESET"),
      statuses.join(" "),
    ).toBe(true);
    expect(peak - before, `RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB`).toBeLessThan(300);
    await expect.poll(() => rssMiB(pid) - before, { timeout: 30_000 }).toBeLessThan(100);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** A connection from `localAddress` (all of 127.0.0.0/8 is the loopback interface) that sent `text`; resolves once connected. */
function connectFrom(localAddress: string, port: number, text: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port, localAddress }, () => resolve(socket));
    socket.on("error", () => {});
    socket.once("error", reject);
    socket.write(text);
  });
}

test("the edge of one server: a connection cap per address, problem+json for what Node refuses, only JSON lines in its log", async ({
  request,
}) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bank-templates-edge-"));
  const port = E2E_PORT + 9;
  const CAP = 20;
  const server = standaloneServer(port, dataDir, { LOG_LEVEL: "info", MAX_CONNECTIONS_PER_ADDRESS: String(CAP) });
  const slow: net.Socket[] = [];
  try {
    await server.start();
    // Slowloris from 127.0.0.1: the cap plus 100 requests whose headers never end.
    for (let i = 0; i < CAP + 100; i++) slow.push(await connectFrom("127.0.0.1", port, "GET /healthz HTTP/1.1\r\nHost: x\r\n"));
    // At least the 100 past the cap are cut at once (the start's keep-alive /readyz connection may hold a place too).
    const cut = () => slow.filter((socket) => socket.destroyed || socket.readyState === "closed").length;
    await expect.poll(cut).toBeGreaterThanOrEqual(100);
    expect(CAP + 100 - cut()).toBeGreaterThan(CAP - 3);
    // Meanwhile 127.0.0.2 is served.
    const healthFrom = (localAddress: string) =>
      new Promise<number | string>((resolve) => {
        const req = http.get({ host: "127.0.0.1", port, localAddress, path: "/healthz", agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
      });
    for (let i = 0; i < 20; i++) expect(await healthFrom("127.0.0.2")).toBe(200);
    // Its connections closed, 127.0.0.1 is served again.
    for (const socket of slow) socket.destroy();
    await expect.poll(() => healthFrom("127.0.0.1")).toBe(200);

    // What Node's parser refuses: problem+json, not an empty body.
    for (const [head, status, type] of [
      [`GET /sources HTTP/1.1\r\nHost: x\r\nCookie: ${"c".repeat(20_000)}\r\n\r\n`, 431, "headers-too-large"],
      ["NOT HTTP\r\n\r\n", 400, "malformed-request"],
    ] as const) {
      const answer = await rawExchange(port, head);
      expect(answer.status, type).toBe(status);
      expect(answer.text).toContain("application/problem+json");
      expect(JSON.parse(answer.text.slice(answer.text.indexOf("\r\n\r\n") + 4))).toMatchObject({
        type: `urn:bank-templates:problem:${type}`,
        status,
        request_id: expect.any(String),
      });
    }

    // What made Next print plain text: an oversized anonymous body outside the API, and (before
    // it answered 302) a character next-auth could not put in a header.
    const oversized = await new Promise<number | string>((resolve) => {
      const req = http.request(
        { host: "127.0.0.1", port, method: "POST", path: "/signin", headers: { "transfer-encoding": "chunked" } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
      req.end(Buffer.alloc(2 * MiB, "a"));
    });
    expect(oversized).toBe(200);
    const euro = await request.get(`${server.baseUrl}/api/auth/error?error=%E2%82%AC`, { maxRedirects: 0 });
    expect(euro.status()).toBe(302);
    expect(euro.headers().location).toBe("/signin?error=%E2%82%AC");

    // The refusals are summed up within 10 s.
    await expect.poll(() => server.log.includes("connections refused"), { timeout: 20_000 }).toBe(true);
  } finally {
    for (const socket of slow) socket.destroy();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const lines = server.log.trimEnd().split("\n");
  const notJson = lines.filter((line) => {
    try {
      return typeof JSON.parse(line) !== "object";
    } catch {
      return true;
    }
  });
  expect(notJson).toEqual([]);
  const parsed = lines.map((line) => JSON.parse(line) as { level: string; msg: string; [field: string]: unknown });
  expect(parsed.find((line) => line.msg.startsWith("connections refused"))).toMatchObject({
    level: "warn",
    addresses: [{ address: "127.0.0.1", count: expect.any(Number) }],
  });
  expect(parsed.find((line) => line.msg.startsWith("Request body exceeded 1MB for /signin"))).toMatchObject({ level: "warn" });
  expect(parsed.filter((line) => line.level === "error")).toEqual([]);
});

/** The pids of the processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const result = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" });
  return result.stdout.split("\n").filter(Boolean).map(Number);
}

test.describe("worker processes", () => {
  test.setTimeout(240_000);
  let database: ScratchDatabase;
  let server: ServerProcess;
  const token = "edge-workers-admin-token-0123456789abcdef0123456789";

  test.beforeAll(async () => {
    database = await createScratchDatabase("e2e_workers");
    server = new ServerProcess(E2E_PORT + 8, {
      DATABASE_URL: database.url,
      SECRET_KEY: randomBytes(32).toString("hex"),
      BOOTSTRAP_ADMIN_TOKEN: token,
      WEB_CONCURRENCY: "2",
    });
    await server.start();
  });
  test.afterAll(async () => {
    await server.stop();
    await database.drop();
  });

  test("a worker that dies is replaced, and SIGTERM lets a request in flight finish", async ({ request }) => {
    // npm start's launcher → the server's primary process → its two workers.
    const [primary] = childrenOf(server.pid!);
    expect(primary).toBeDefined();
    const workers = childrenOf(primary!);
    expect(workers).toHaveLength(2);

    process.kill(workers[0]!, "SIGKILL");
    await expect.poll(() => childrenOf(primary!).filter((pid) => pid !== workers[0]).length, { timeout: 60_000 }).toBe(2);
    for (let i = 0; i < 6; i++) {
      const me = await request.get(`${server.baseUrl}/ext/svc/me`, { headers: { authorization: `Bearer ${token}`, connection: "close" } });
      expect(me.status()).toBe(200);
    }

    // A write whose body takes 3 s to arrive; SIGTERM after the first second.
    const body = JSON.stringify({ url: "https://github.com/edge/late-templates", alias: "late" });
    const head = requestHead("POST", SOURCES, {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "content-length": body.length + 3,
    });
    const inFlight = new Promise<RawAnswer>((resolve) => {
      const started = Date.now();
      const socket = net.connect(server.port, "127.0.0.1");
      let text = "";
      socket.on("data", (chunk) => (text += chunk));
      socket.on("close", () =>
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]) || null, text, closedAfter: Date.now() - started }),
      );
      socket.write(head);
      let sent = 0;
      const timer = setInterval(() => {
        sent++;
        socket.write(" ");
        if (sent === 3) {
          clearInterval(timer);
          socket.write(body);
        }
      }, 1_000);
    });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const stopping = Date.now();
    const stopped = server.stop();
    const answer = await inFlight;
    expect(answer.status, answer.text).toBe(201);
    await stopped;
    expect(Date.now() - stopping).toBeLessThan(12_000);
    await expect(request.get(`${server.baseUrl}/healthz`)).rejects.toThrow();
  });
});
