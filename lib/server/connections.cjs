// What the production server (http-server.cjs) does with a connection before Next sees a request
// on it (CONTRACT §18):
// - bounds connections: at most MAX_CONNECTIONS_PER_ADDRESS open from one client address (an IPv6
//   client's /64) and MAX_CONNECTIONS in all, so that one address holding sockets open (slowloris)
//   cannot starve the others, nor the process run out of descriptors;
// - answers what Node's parser refuses (headers over 16 KiB, a malformed request, a request that
//   did not arrive in time) with problem+json, where Node would answer with an empty body.
"use strict";

const { randomUUID } = require("node:crypto");
const fs = require("node:fs");

// --- Connection limits ---------------------------------------------------------------------------

/** Descriptors assumed when the process's limit cannot be read (not Linux): the usual soft limit. */
const ASSUMED_DESCRIPTOR_LIMIT = 1024;
const DEFAULT_PER_ADDRESS = 100;
/** How often at most the refusals are summed up in a log line (one line per refusal would be a flood of its own). */
const REFUSALS_LOG_INTERVAL_MS = 10_000;
/** Addresses a refusals line names, the most refused first. */
const REFUSALS_ADDRESSES_NAMED = 5;

/** The process's open-file limit (the soft one, what `ulimit -n` says); Node has no getrlimit. */
function descriptorLimit() {
  try {
    const line = /^Max open files\s+(\S+)/m.exec(fs.readFileSync("/proc/self/limits", "utf8"));
    const soft = Number(line?.[1]);
    return Number.isInteger(soft) && soft > 0 ? soft : ASSUMED_DESCRIPTOR_LIMIT;
  } catch {
    return ASSUMED_DESCRIPTOR_LIMIT;
  }
}

const positiveInteger = (text) => {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : undefined;
};

/**
 * The limits of one process. MAX_CONNECTIONS defaults to three quarters of the process's open-file
 * limit (768 of the usual 1,024), the rest being for the database, files and outbound requests;
 * a larger value is lowered to that, since past it accepting fails for everyone. The per-address cap
 * defaults to 100, or to MAX_CONNECTIONS behind reverse proxies (TRUSTED_PROXIES above 0), whose
 * own address every connection then comes from: there the proxy is the place to cap clients.
 */
function connectionLimitsFrom(env, descriptors = descriptorLimit()) {
  const ceiling = Math.max(1, Math.floor(descriptors * 0.75));
  const asked = positiveInteger(env.MAX_CONNECTIONS);
  const total = Math.min(asked ?? ceiling, ceiling);
  const behindProxies = (positiveInteger(env.TRUSTED_PROXIES) ?? 0) > 0;
  const perAddress = Math.min(positiveInteger(env.MAX_CONNECTIONS_PER_ADDRESS) ?? (behindProxies ? total : DEFAULT_PER_ADDRESS), total);
  return { total, perAddress, descriptors, lowered: asked !== undefined && asked > ceiling };
}

/**
 * Whose connection it is, for the per-address cap: the address, or an IPv6 address's /64 (the
 * network one host is usually given whole, every address of which it can connect from).
 */
function addressKey(address) {
  if (!address) return "";
  if (!address.includes(":") || address.startsWith("::ffff:")) return address;
  const [left, right] = address.split("%")[0].split("::");
  const head = left ? left.split(":") : [];
  const tail = right ? right.split(":") : [];
  const groups = right === undefined ? head : [...head, ...Array(Math.max(8 - head.length - tail.length, 0)).fill("0"), ...tail];
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * Holds `server` to the limits: a connection past them is closed as it arrives, before a byte of
 * it is read. No answer is written: an address past its cap already holds that many connections,
 * an answer written before the request is read is lost to the reset that closing an unread socket
 * sends anyway, and reading the request first is the work the cap is there to avoid. A client
 * within the caps (a browser opens six) never meets it. Refusals are summed up in one warning
 * line every 10 s at most.
 */
function limitConnections(server, limits, log, { refusalsLogIntervalMs = REFUSALS_LOG_INTERVAL_MS } = {}) {
  server.maxConnections = limits.total;
  const open = new Map();
  let refused = new Map();
  let refusedOverAddress = 0;
  let refusedOverTotal = 0;
  let logPending = false;
  const noteRefusal = () => {
    if (logPending) return;
    logPending = true;
    setTimeout(() => {
      const addresses = [...refused]
        .sort((a, b) => b[1] - a[1])
        .slice(0, REFUSALS_ADDRESSES_NAMED)
        .map(([address, count]) => ({ address, count }));
      log("warn", "connections refused: past the per-address or the total connection limit", {
        refused_over_address_limit: refusedOverAddress,
        refused_over_total_limit: refusedOverTotal,
        addresses,
        max_connections: limits.total,
        max_connections_per_address: limits.perAddress,
      });
      refused = new Map();
      refusedOverAddress = 0;
      refusedOverTotal = 0;
      logPending = false;
    }, refusalsLogIntervalMs).unref();
  };
  server.on("drop", () => {
    refusedOverTotal++;
    noteRefusal();
  });
  // Before Node's HTTP handling of the connection: a refused one is never parsed.
  server.prependListener("connection", (socket) => {
    const key = addressKey(socket.remoteAddress);
    const count = open.get(key) ?? 0;
    if (count >= limits.perAddress) {
      socket.destroy();
      refusedOverAddress++;
      // Bounded: an attacker with many addresses grows this only until the next log line.
      if (refused.size < 10_000 || refused.has(key)) refused.set(key, (refused.get(key) ?? 0) + 1);
      noteRefusal();
      return;
    }
    open.set(key, count + 1);
    socket.once("close", () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}

// --- Answers to what Node's parser refuses -------------------------------------------------------

const PROBLEM_TYPE_PREFIX = "urn:bank-templates:problem:";
/** How long a refused request's connection stays open for the client to read its answer. */
const LINGER_MS = 1_000;

/**
 * The problem answering each refusal of Node's parser (by its error code), as lib/contracts/problem-types.ts
 * names and numbers them (tests/server-connections.test.ts holds the two together); any other code is a malformed request.
 */
const CLIENT_ERROR_PROBLEMS = {
  HPE_HEADER_OVERFLOW: {
    type: "headers-too-large",
    status: 431,
    title: "Request Header Fields Too Large",
    detail: "The request's headers (cookies included) are larger than 16 KiB.",
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    type: "payload-too-large",
    status: 413,
    title: "Payload Too Large",
    detail: "The chunk extensions of the request's body are too large.",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    type: "request-timeout",
    status: 408,
    title: "Request Timeout",
    detail: "The request did not arrive in time: its headers within 10 seconds, all of it within 30.",
  },
};
const MALFORMED_REQUEST = {
  type: "malformed-request",
  status: 400,
  title: "Bad Request",
  detail: "The request is not well-formed HTTP/1.1 (its request line, a header or the chunked body).",
};

/** The whole HTTP answer, head and problem+json body, for writing to the socket as it is. */
function problemAnswer(problem, requestId) {
  const { type, title, status, detail } = problem;
  // The members in the order of the app's problems (lib/contracts/errors.ts).
  const body = JSON.stringify({ type: `${PROBLEM_TYPE_PREFIX}${type}`, title, status, detail, request_id: requestId });
  const head = [
    `HTTP/1.1 ${problem.status} ${problem.title}`,
    "Content-Type: application/problem+json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Cache-Control: no-store",
    "X-Content-Type-Options: nosniff",
    `X-Request-Id: ${requestId}`,
    "Connection: close",
  ];
  return `${head.join("\r\n")}\r\n\r\n${body}`;
}

/**
 * Answers what Node's parser refuses as Node would (the same statuses, then the connection closed),
 * but with a problem+json body, a request id and an info line. Nothing is written where an answer
 * to the connection's request has already begun (it would corrupt that answer), nor to a client
 * that is gone.
 */
function answerClientErrors(server, log) {
  const answered = new WeakSet();
  server.on("clientError", (error, socket) => {
    // The parser refuses each later piece of a refused request again: its answer is on its way.
    if (answered.has(socket)) return;
    const answering = socket._httpMessage;
    if (!socket.writable || error.code === "ECONNRESET" || answering?.headersSent) return void socket.destroy();
    const problem = CLIENT_ERROR_PROBLEMS[error.code] ?? MALFORMED_REQUEST;
    const requestId = randomUUID();
    // Ended, not destroyed at once: closing while the rest of the request is unread would send a
    // reset, which may reach the client before the answer does. A client that keeps it open is cut.
    answered.add(socket);
    socket.end(problemAnswer(problem, requestId));
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
    log("info", "refused a request Node's parser could not take", { request_id: requestId, status: problem.status, code: error.code });
  });
}

module.exports = { addressKey, answerClientErrors, CLIENT_ERROR_PROBLEMS, connectionLimitsFrom, limitConnections, MALFORMED_REQUEST };
