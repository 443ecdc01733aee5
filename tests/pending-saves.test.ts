import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api, isNetworkFailure } from "@/lib/client/api";
import { endpoints } from "@/lib/client/endpoints";
import { entityTagOf } from "@/lib/client/entity-tag";
import { type PendingSave, watchSaves } from "@/lib/client/pending-saves";
import { ApiProblem } from "@/lib/client/problem";
import { connectReachability } from "@/lib/client/resend";

// The console's resend of a write that could not reach the server (lib/client/pending-saves.ts),
// through api.call with a stand-in for the browser's fetch and for the reachability store.

const createSource = endpoints.sources.server.create;
const BODY = { name: "offline-notes", url: "https://example.test/templates.json" };

interface Sent {
  method: string;
  url: string;
  key: string | null;
  ifMatch: string | null;
  body: string | undefined;
}

/**
 * A server behind a network that fails when told: `down` fails every request before it arrives;
 * `loseAnswer` lets the next write arrive and be done, then fails its answer. Writes honour the
 * Idempotency-Key as the API does (CONTRACT §18): the same key answers the first answer again.
 */
function fakeServer() {
  const sent: Sent[] = [];
  const answers = new Map<string, { status: number; body: string }>();
  // `gateway`: a proxy in front answers for the server with this status and its own error page (the server sees nothing).
  // `version`: the resource's ETag; a write whose If-Match names another is refused (412) and writes nothing.
  const state = { down: false, loseAnswer: false, keyInUse: 0, writes: 0, gateway: 0, serverUnavailable: false, version: '"v1"' };
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const key = new Headers(init.headers).get("Idempotency-Key");
    const ifMatch = new Headers(init.headers).get("If-Match");
    sent.push({ method: init.method ?? "GET", url, key, ifMatch, body: init.body as string | undefined });
    if (state.down) throw new TypeError("Failed to fetch");
    if (state.gateway) return new Response("<html>Bad gateway</html>", { status: state.gateway, headers: { "content-type": "text/html" } });
    if (state.serverUnavailable) {
      const problem = {
        type: "urn:bank-templates:problem:unavailable",
        title: "Service Unavailable",
        status: 503,
        detail: "database down",
      };
      return new Response(JSON.stringify(problem), { status: 503, headers: { "content-type": "application/problem+json" } });
    }
    if (state.keyInUse > 0) {
      state.keyInUse--;
      const problem = { type: "urn:bank-templates:problem:idempotency-key-in-use", title: "Conflict", status: 409, detail: "in use" };
      return new Response(JSON.stringify(problem), { status: 409, headers: { "content-type": "application/problem+json" } });
    }
    let answer = key ? answers.get(key) : undefined;
    if (!answer && ifMatch !== null && ifMatch !== state.version) {
      const problem = {
        type: "urn:bank-templates:problem:precondition-failed",
        title: "Precondition Failed",
        status: 412,
        detail: "changed",
      };
      return new Response(JSON.stringify(problem), {
        status: 412,
        headers: { "content-type": "application/problem+json", etag: state.version },
      });
    }
    if (!answer) {
      state.writes++;
      answer = { status: 201, body: JSON.stringify({ id: `source-${state.writes}` }) };
      if (key) answers.set(key, answer);
    }
    if (state.loseAnswer) {
      state.loseAnswer = false;
      throw new TypeError("Failed to fetch");
    }
    return new Response(answer.body, { status: answer.status, headers: { "content-type": "application/json", etag: state.version } });
  });
  return { sent, state, fetch };
}

/** The reachability store, played by the test: the server answers again when `serverBack()` says so. */
function fakeReachability() {
  const waiting: (() => void)[] = [];
  const counts = { reports: 0 };
  connectReachability({
    reportUnreachable: () => {
      counts.reports++;
    },
    whenReachable: () => new Promise<void>((resolve) => waiting.push(resolve)),
  });
  return {
    counts,
    /** Resolves once a save waits for the server. */
    waitingForServer: () => vi.waitFor(() => expect(waiting.length).toBeGreaterThan(0)),
    serverBack: () => {
      for (const resume of waiting.splice(0)) resume();
    },
  };
}

let server: ReturnType<typeof fakeServer>;
let reach: ReturnType<typeof fakeReachability>;
const saves: PendingSave[] = [];
let unwatch: () => void;

beforeEach(() => {
  server = fakeServer();
  vi.stubGlobal("fetch", server.fetch);
  reach = fakeReachability();
  saves.length = 0;
  unwatch = watchSaves((save) => saves.push(save));
});

afterEach(() => {
  unwatch();
  vi.unstubAllGlobals();
});

describe("a console write that cannot reach the server", () => {
  it("waits for the server, then is sent once more with the same request and key, and answers as a success", async () => {
    server.state.down = true;
    const call = api.call(createSource, { body: BODY });
    await reach.waitingForServer();
    expect(server.sent).toHaveLength(1);
    expect(reach.counts.reports).toBe(1);
    expect(saves).toHaveLength(1);

    server.state.down = false;
    reach.serverBack();
    await expect(call).resolves.toEqual({ id: "source-1" });
    expect(server.sent).toHaveLength(2);
    const [first, resend] = server.sent;
    expect(resend).toEqual(first);
    expect(first!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.state.writes).toBe(1);
  });

  it("keeps its If-Match on every try: a change made while it waited is not overwritten (412, nothing written)", async () => {
    server.state.down = true;
    const call = api.call(createSource, { body: BODY, ifMatch: '"v1"' });
    await reach.waitingForServer();
    // Meanwhile someone else changes the resource.
    server.state.version = '"v2"';
    server.state.down = false;
    reach.serverBack();
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiProblem);
    expect((error as ApiProblem).problemType).toBe("precondition-failed");
    expect(server.sent.map((s) => s.ifMatch)).toEqual(['"v1"', '"v1"']);
    expect(server.sent[1]).toEqual(server.sent[0]);
    expect(server.state.writes).toBe(0);
  });

  it("sent with the version still current is written once, and its answer keeps the new ETag", async () => {
    server.state.down = true;
    const call = api.call(createSource, { body: BODY, ifMatch: '"v1"' });
    await reach.waitingForServer();
    server.state.down = false;
    reach.serverBack();
    const answer = await call;
    expect(answer).toEqual({ id: "source-1" });
    expect(entityTagOf(answer)).toBe('"v1"');
    expect(server.state.writes).toBe(1);
  });

  it("whose answer was lost gets the first answer on the resend, and is written once", async () => {
    server.state.loseAnswer = true;
    const call = api.call(createSource, { body: BODY });
    await reach.waitingForServer();
    expect(server.state.writes).toBe(1);

    reach.serverBack();
    await expect(call).resolves.toEqual({ id: "source-1" });
    expect(server.sent.map((s) => s.key)).toEqual([server.sent[0]!.key, server.sent[0]!.key]);
    expect(server.state.writes).toBe(1);
  });

  it("waits again when the resend cannot reach the server either, keeping its key", async () => {
    server.state.down = true;
    const call = api.call(createSource, { body: BODY });
    await reach.waitingForServer();
    reach.serverBack();
    await vi.waitFor(() => expect(server.sent).toHaveLength(2));
    await reach.waitingForServer();
    expect(reach.counts.reports).toBe(2);

    server.state.down = false;
    reach.serverBack();
    await expect(call).resolves.toEqual({ id: "source-1" });
    expect(new Set(server.sent.map((s) => s.key)).size).toBe(1);
    expect(server.sent).toHaveLength(3);
    expect(server.state.writes).toBe(1);
  });

  it("asks again while the first request of its key still runs (409 idempotency-key-in-use)", async () => {
    server.state.loseAnswer = true;
    const call = api.call(createSource, { body: BODY });
    await reach.waitingForServer();
    server.state.keyInUse = 1;
    reach.serverBack();
    await expect(call).resolves.toEqual({ id: "source-1" });
    expect(server.sent).toHaveLength(3);
    expect(server.state.writes).toBe(1);
  });

  it("cancelled while it waits is never sent again, and fails as cancelled, not as a lost connection", async () => {
    server.state.down = true;
    const call = api.call(createSource, { body: BODY });
    await reach.waitingForServer();
    saves[0]!.cancel();
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiProblem);
    expect((error as ApiProblem).detail).toBe("Save cancelled: it was not sent again.");
    expect(isNetworkFailure(error)).toBe(false);

    server.state.down = false;
    reach.serverBack();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.sent).toHaveLength(1);
    expect(server.state.writes).toBe(0);
    await expect(saves[0]!.settled).resolves.toBeUndefined();
  });

  it.each([502, 503, 504])("answered %i by a proxy in front of the server, waits for the server like a lost connection", async (status) => {
    server.state.gateway = status;
    const call = api.call(createSource, { body: BODY });
    await reach.waitingForServer();
    expect(reach.counts.reports).toBe(1);
    expect(saves).toHaveLength(1);

    server.state.gateway = 0;
    reach.serverBack();
    await expect(call).resolves.toEqual({ id: "source-1" });
    expect(server.sent).toHaveLength(2);
    expect(server.sent[1]).toEqual(server.sent[0]);
    expect(server.state.writes).toBe(1);
  });

  it("answered 503 by the server itself (problem+json) fails with that answer: nothing waits", async () => {
    server.state.serverUnavailable = true;
    const error = await api.call(createSource, { body: BODY }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiProblem);
    expect((error as ApiProblem).status).toBe(503);
    expect(isNetworkFailure(error)).toBe(false);
    expect(server.sent).toHaveLength(1);
    expect(saves).toHaveLength(0);
  });

  it("gives every new action its own key, and the caller's key when given", async () => {
    await api.call(createSource, { body: BODY });
    await api.call(createSource, { body: BODY });
    await api.call(createSource, { body: BODY, idempotencyKey: "given-key" });
    const [a, b, c] = server.sent.map((s) => s.key);
    expect(a).not.toBe(b);
    expect(c).toBe("given-key");
  });
});

describe("a read that cannot reach the server", () => {
  it("fails at once as a network failure, for its query to wait and ask again; nothing waits here", async () => {
    server.state.down = true;
    const error = await api.call(endpoints.sources.server.list).catch((e: unknown) => e);
    expect(isNetworkFailure(error)).toBe(true);
    expect(server.sent).toHaveLength(1);
    expect(server.sent[0]!.key).toBeNull();
    expect(saves).toHaveLength(0);
  });

  it("answered 502 by a proxy fails as a network failure, for its query to wait for the server", async () => {
    server.state.gateway = 502;
    const error = await api.call(endpoints.sources.server.list).catch((e: unknown) => e);
    expect(isNetworkFailure(error)).toBe(true);
    expect(saves).toHaveLength(0);
  });
});
