import { spawnSync } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROBLEM_STATUS, type ProblemType, problemTitle, problemTypeUri } from "@/lib/contracts/problem-types";
import * as connections from "@/lib/server/connections.cjs";

// The production server's handling of connections before Next sees a request (lib/server/connections.cjs,
// CONTRACT §18) and its log lines (lib/server/server-log.cjs), on a plain node:http server with the
// same code; e2e/server-edge.spec.ts runs them in the built server. No database: once, in the PGlite project.

type Log = (level: string, msg: string, fields?: Record<string, unknown>) => void;
const ROOT = path.join(import.meta.dirname, "..");

interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

let servers: http.Server[] = [];
let sockets: net.Socket[] = [];
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
  sockets = [];
});

/** A node:http server on 127.0.0.1 answering 200 "ok", set up as `setUp` says; its port and what it logged. */
async function serve(setUp: (server: http.Server, log: Log) => void): Promise<{ port: number; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const server = http.createServer((_req, res) => res.end("ok"));
  setUp(server, (level, msg, fields = {}) => lines.push({ level, msg, ...fields }));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as net.AddressInfo).port, lines };
}

/** A socket from `localAddress` (all of 127.0.0.0/8 is the loopback interface) that sent `text`; resolves once connected. */
function connectFrom(localAddress: string, port: number, text: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port, localAddress }, () => resolve(socket));
    sockets.push(socket);
    socket.on("error", () => {});
    socket.once("error", reject);
    socket.write(text);
  });
}

/** Everything the server sent on a new connection after `text`, until it closed it. */
function exchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    sockets.push(socket);
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("error", () => {});
    socket.on("close", () => resolve(answer));
    socket.write(text);
  });
}

/** GET / from `localAddress` on a connection of its own: the status, or the error code. */
function getFrom(localAddress: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, localAddress, path: "/", agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(String(res.statusCode)));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
  });
}

const closed = (socket: net.Socket) => socket.destroyed || socket.readyState === "closed";

describe.runIf(process.env.TEST_DB !== "postgres")("connection limits", () => {
  it("one address past its cap (the cap plus 100 slow sockets) cannot starve another", async () => {
    const CAP = 20;
    const { port, lines } = await serve((server, log) =>
      connections.limitConnections(server, { total: 1_000, perAddress: CAP }, log, { refusalsLogIntervalMs: 50 }),
    );
    // Slowloris: a request's first line, never the rest of its headers.
    const slow = await Promise.all(Array.from({ length: CAP + 100 }, () => connectFrom("127.0.0.1", port, "GET / HTTP/1.1\r\n")));
    await expect.poll(() => slow.filter(closed).length).toBe(100);
    // The cap's worth stay open, waiting for their headers as any request would.
    expect(slow.filter((socket) => !closed(socket))).toHaveLength(CAP);

    const answers = await Promise.all(Array.from({ length: 30 }, () => getFrom("127.0.0.2", port)));
    expect(answers).toEqual(Array(30).fill("200"));
    // The first address gets nothing more until one of its connections closes; then it does.
    expect(await getFrom("127.0.0.1", port)).toBe("ECONNRESET");
    slow[0]!.destroy();
    await expect.poll(() => getFrom("127.0.0.1", port)).toBe("200");

    await expect
      .poll(() => lines.find((line) => line.msg.startsWith("connections refused")))
      .toMatchObject({
        level: "warn",
        addresses: [{ address: "127.0.0.1", count: expect.any(Number) }],
        max_connections_per_address: CAP,
      });
  });

  it("counts an IPv6 client by its /64, an IPv4 one (mapped or not) by its address", () => {
    expect(connections.addressKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(connections.addressKey("2001:0DB8:1:2::9")).toBe("2001:db8:1:2::/64");
    expect(connections.addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(connections.addressKey("::1")).toBe("0:0:0:0::/64");
    expect(connections.addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(connections.addressKey("::ffff:203.0.113.7")).toBe("::ffff:203.0.113.7");
  });

  it("defaults: three quarters of the open-file limit in all, 100 an address, or all behind proxies", () => {
    expect(connections.connectionLimitsFrom({}, 1024)).toEqual({ total: 768, perAddress: 100, descriptors: 1024, lowered: false });
    expect(connections.connectionLimitsFrom({ TRUSTED_PROXIES: "1" }, 1024)).toMatchObject({ total: 768, perAddress: 768 });
    expect(connections.connectionLimitsFrom({ MAX_CONNECTIONS: "5000" }, 1024)).toMatchObject({ total: 768, lowered: true });
    expect(connections.connectionLimitsFrom({ MAX_CONNECTIONS: "300", MAX_CONNECTIONS_PER_ADDRESS: "500" }, 1024)).toMatchObject({
      total: 300,
      perAddress: 300,
    });
    expect(connections.connectionLimitsFrom({ MAX_CONNECTIONS: "x", MAX_CONNECTIONS_PER_ADDRESS: "-3" }, 1024)).toMatchObject({
      total: 768,
      perAddress: 100,
    });
    // This process's own limit, read from /proc.
    expect(connections.connectionLimitsFrom({}).descriptors).toBeGreaterThan(0);
  });
});

describe.runIf(process.env.TEST_DB !== "postgres")("what Node's parser refuses answers problem+json", () => {
  it("names the problem types and statuses of lib/contracts/problem-types.ts", () => {
    for (const problem of [...Object.values(connections.CLIENT_ERROR_PROBLEMS), connections.MALFORMED_REQUEST]) {
      const type = problem.type as ProblemType;
      expect(PROBLEM_STATUS[type], type).toBe(problem.status);
      expect(problemTitle(type), type).toBe(problem.title);
    }
  });

  /** The status, headers and parsed body of a raw answer. */
  const parse = (answer: string) => {
    const [head = "", body = ""] = answer.split("\r\n\r\n");
    return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), head: head.toLowerCase(), body: JSON.parse(body) };
  };

  it("headers over 16 KiB: 431; a malformed request line or header: 400; each with a request id that is logged", async () => {
    const { port, lines } = await serve((server, log) => connections.answerClientErrors(server, log));
    const cases = [
      [`GET / HTTP/1.1\r\nHost: x\r\nCookie: ${"c".repeat(20_000)}\r\n\r\n`, 431, "headers-too-large"],
      ["NOT HTTP AT ALL\r\n\r\n", 400, "malformed-request"],
      ["GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", 400, "malformed-request"],
      ["POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400, "malformed-request"],
    ] as const;
    for (const [text, status, type] of cases) {
      const answer = parse(await exchange(port, text));
      expect(answer.status, type).toBe(status);
      expect(answer.head).toContain("content-type: application/problem+json");
      expect(answer.head).toContain("connection: close");
      expect(answer.body).toMatchObject({ type: problemTypeUri(type), status, title: problemTitle(type) });
      expect(answer.body.detail).toEqual(expect.any(String));
      expect(answer.head).toContain(`x-request-id: ${answer.body.request_id}`);
      expect(lines).toContainEqual(expect.objectContaining({ level: "info", request_id: answer.body.request_id, status }));
    }
  });
});

describe.runIf(process.env.TEST_DB !== "postgres")("the server's output", () => {
  it("is one JSON object per line, whatever printed it", () => {
    const script = `
      require(${JSON.stringify(path.join(ROOT, "lib/server/server-log.cjs"))}).routeConsoleToLog();
      console.log("✓ Ready");
      console.log("");
      console.warn("Request body exceeded %s for /signin.", "1MB");
      console.error("⨯", new TypeError("Cannot convert argument to a ByteString\\nsecond line"));
      console.info({ nested: { object: true } });
      process.emitWarning("too many listeners", "MaxListenersExceededWarning");
    `;
    const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(run.stdout).toBe("");
    const lines = run.stderr.trimEnd().split("\n");
    const parsed = lines.map((line) => JSON.parse(line) as LogLine);
    expect(parsed.map(({ level, msg }) => [level, msg])).toEqual([
      ["info", "✓ Ready"],
      ["warn", "Request body exceeded 1MB for /signin."],
      ["error", "⨯ TypeError: Cannot convert argument to a ByteString\nsecond line"],
      ["info", "{ nested: { object: true } }"],
      ["warn", "MaxListenersExceededWarning: too many listeners"],
    ]);
    expect(parsed[2]!.error).toMatchObject({ name: "TypeError", stack: expect.stringContaining("\n    at ") });
  });
});
