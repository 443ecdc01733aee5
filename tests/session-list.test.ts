import { eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { consoleSessions } from "@/db/schema";
import { sessionClaims } from "@/lib/auth/session";
import { browserLabel } from "@/lib/shared/browser-label";
import { type ApiResponse, as, type Client, request, useTestApp } from "./support/app";
import { signInWithPassword } from "./support/console-sessions";

const t = useTestApp();

const PASSWORD = "a long password for sessions";
const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_ON_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

const SAME_ORIGIN_READ = { "sec-fetch-site": "same-origin" };
const SAME_ORIGIN_WRITE = { origin: "http://localhost", "sec-fetch-site": "same-origin" };

/** Every answer of this file, so the last test can look for secrets in all of them. */
const answers: ApiResponse[] = [];
const seen = async (answer: Promise<ApiResponse>) => {
  const res = await answer;
  answers.push(res);
  return res;
};

/** The session API as one signed-in browser calls it. */
function browser(cookie: string) {
  return {
    cookie,
    me: () => seen(request("GET", "/ext/svc/me", { headers: { cookie, ...SAME_ORIGIN_READ } })),
    list: () => seen(request("GET", "/ext/svc/me/sessions", { headers: { cookie, ...SAME_ORIGIN_READ } })),
    end: (id: string) =>
      seen(request("DELETE", `/ext/svc/me/sessions/${encodeURIComponent(id)}`, { headers: { cookie, ...SAME_ORIGIN_WRITE } })),
    endOthers: () => seen(request("POST", "/ext/svc/me/sessions/sign-out-others", { headers: { cookie, ...SAME_ORIGIN_WRITE } })),
  };
}
type Browser = ReturnType<typeof browser>;

async function signIn(userId: string, userAgent?: string): Promise<Browser> {
  const cookie = await signInWithPassword(t.app, userId, PASSWORD, userAgent);
  if (!cookie) throw new Error(`signing in ${userId} was refused`);
  return browser(cookie);
}

/** The secret session id (`sid`) inside a browser's token. */
async function sidOf(session: Browser): Promise<string> {
  const claims = await sessionClaims(t.app, session.cookie.slice(session.cookie.indexOf("=") + 1));
  return claims!.sessionId;
}

async function rowOf(session: Browser) {
  const [row] = await t.app.db
    .select()
    .from(consoleSessions)
    .where(eq(consoleSessions.id, await sidOf(session)));
  return row;
}

/** The public id the list gives a browser's session. */
async function publicIdOf(session: Browser): Promise<string> {
  return (await rowOf(session))!.publicId;
}

let erinKey: Client;
let finnKey: Client;

beforeAll(async () => {
  for (const id of ["erin", "finn"]) {
    expect((await t.admin.post("/ext/svc/admin/users", { id, password: PASSWORD })).status).toBe(201);
  }
  const key = async (id: string) => as((await t.admin.post(`/ext/svc/admin/users/${id}/api-keys`, {})).body.token);
  erinKey = await key("erin");
  finnKey = await key("finn");
});

afterEach(() => {
  vi.useRealTimers();
});

describe("the browser label", () => {
  it("names browser and system, and nothing else of the header", () => {
    expect(browserLabel(FIREFOX_ON_WINDOWS)).toBe("Firefox on Windows");
    expect(browserLabel(SAFARI_ON_IPHONE)).toBe("Safari on iOS");
    expect(
      browserLabel("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0"),
    ).toBe("Edge on Linux");
    expect(
      browserLabel("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36"),
    ).toBe("Chromium on Linux");
    expect(
      browserLabel("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"),
    ).toBe("Chrome on Android");
    expect(
      browserLabel("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15"),
    ).toBe("Safari on macOS");
    expect(browserLabel("curl/8.5.0")).toBe("curl");
    expect(browserLabel("something (X11; Linux)")).toBe("A browser on Linux");
    expect(browserLabel("nothing we know")).toBeNull();
    expect(browserLabel("")).toBeNull();
    expect(browserLabel(null)).toBeNull();
  });
});

describe("the caller's sessions", () => {
  let first: Browser;
  let second: Browser;

  it("lists the caller's live sessions only, marks the one asking, and keeps only the browser's label", async () => {
    first = await signIn("erin", FIREFOX_ON_WINDOWS);
    second = await signIn("erin", SAFARI_ON_IPHONE);
    await signIn("finn");

    const res = await first.list();
    expect(res.status, res.text).toBe(200);
    const { sessions } = res.body;
    expect(sessions).toHaveLength(2);
    const ids = [await publicIdOf(second), await publicIdOf(first)];
    expect(sessions.map((s: { id: string }) => s.id)).toEqual(ids); // the newest first
    expect(sessions[1]).toMatchObject({ id: ids[1], browser: "Firefox on Windows", current: true });
    expect(sessions[0]).toMatchObject({ id: ids[0], browser: "Safari on iOS", current: false });
    for (const session of sessions) {
      expect(Object.keys(session).sort()).toEqual(["browser", "created_at", "current", "id", "last_seen_at"]);
      expect(session.id).toMatch(/^ses_[0-9a-f]{32}$/);
    }
    // The row keeps the label, not the header.
    expect((await rowOf(first))!.browser).toBe("Firefox on Windows");

    const fromSecond = (await second.list()).body.sessions;
    expect(fromSecond.map((s: { current: boolean }) => s.current)).toEqual([true, false]);
  });

  it("marks no session current for an API key, and refuses service accounts", async () => {
    const res = await seen(erinKey.get("/ext/svc/me/sessions"));
    expect(res.status).toBe(200);
    expect(res.body.sessions).toHaveLength(2);
    expect(res.body.sessions.every((s: { current: boolean }) => !s.current)).toBe(true);

    expect((await erinKey.post("/ext/svc/me/service-accounts", { id: "erin-bot" })).status).toBe(201);
    const bot = as((await erinKey.post("/ext/svc/me/service-accounts/erin-bot/api-keys", {})).body.token);
    expect((await seen(bot.get("/ext/svc/me/sessions"))).status).toBe(403);
    expect((await seen(bot.post("/ext/svc/me/sessions/sign-out-others"))).status).toBe(403);
  });

  it("moves last_seen_at when the session is used, at most once a minute", async () => {
    const sid = await sidOf(first);
    const backdate = (seconds: number) =>
      t.app.db
        .update(consoleSessions)
        .set({ lastSeenAt: sql`now() - make_interval(secs => ${seconds})` })
        .where(eq(consoleSessions.id, sid));
    const lastSeen = async () => (await rowOf(first))!.lastSeenAt.getTime();

    // Both clocks past the minute: the request writes.
    await backdate(120);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    const stale = await lastSeen();
    expect((await first.me()).status).toBe(200);
    const moved = await lastSeen();
    expect(moved - stale).toBeGreaterThan(100_000);
    expect((await first.list()).body.sessions[1].last_seen_at).toBe(new Date(moved).toISOString());

    // Within the minute by this process's account: no write at all.
    await backdate(30);
    const recent = await lastSeen();
    expect((await first.me()).status).toBe(200);
    expect(await lastSeen()).toBe(recent);

    // This process thinks a minute passed, but the row says 30 s (another process wrote): the
    // conditional update writes nothing. (PGlite's clock is the faked one: backdate after.)
    vi.setSystemTime(Date.now() + 61_000);
    await backdate(30);
    const writtenElsewhere = await lastSeen();
    expect((await first.me()).status).toBe(200);
    expect(await lastSeen()).toBe(writtenElsewhere);
  });

  it("answers 404 for another user's session and for one that does not exist, ending nothing", async () => {
    const finnsSessions = (await seen(finnKey.get("/ext/svc/me/sessions"))).body.sessions;
    expect(finnsSessions).toHaveLength(1);
    const res = await first.end(finnsSessions[0].id);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await seen(finnKey.delete(`/ext/svc/me/sessions/${await publicIdOf(first)}`))).status).toBe(404);
    expect((await first.end("ses_00000000000000000000000000000000")).status).toBe(404);
    // The secret sid is no name for a session either.
    expect((await first.end(await sidOf(second))).status).toBe(404);
    expect((await seen(finnKey.get("/ext/svc/me/sessions"))).body.sessions).toHaveLength(1);
    expect((await first.list()).body.sessions).toHaveLength(2);
  });

  it("ends one session: refused on its next request, the asking one stays, and the audit log says so", async () => {
    const third = await signIn("erin");
    const thirdId = await publicIdOf(third);
    expect((await third.me()).status).toBe(200); // cached in this process now
    expect((await first.end(thirdId)).status).toBe(204);
    expect((await third.me()).status).toBe(401);
    expect((await first.me()).status).toBe(200);
    expect((await first.end(thirdId)).status).toBe(404);

    const { entries } = (await t.admin.get("/ext/svc/admin/audit?action=session.revoke")).body;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { principal_type: "user", principal_id: "erin" },
      target_type: "session",
      target_id: thirdId,
      target: `/ext/svc/me/sessions/${thirdId}`,
      before: { id: thirdId, user_id: "erin" },
      after: null,
    });
  });

  it("signs out everywhere else: the others are refused on their next request, the asking one stays", async () => {
    const third = await signIn("erin");
    expect((await third.me()).status).toBe(200);
    expect((await second.me()).status).toBe(200);
    const ids = [await publicIdOf(second), await publicIdOf(third)];

    const res = await first.endOthers();
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ended: 2 });
    expect((await second.me()).status).toBe(401);
    expect((await third.me()).status).toBe(401);
    expect((await first.me()).status).toBe(200);
    const left = (await first.list()).body.sessions;
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ current: true });
    // finn's session is not erin's to end.
    expect((await seen(finnKey.get("/ext/svc/me/sessions"))).body.sessions).toHaveLength(1);

    const { entries } = (await t.admin.get("/ext/svc/admin/audit?action=session.revoke&actor=erin")).body;
    expect(entries.map((e: { target_id: string }) => e.target_id).sort()).toEqual(expect.arrayContaining([...ids].sort()));
    expect(await first.endOthers()).toMatchObject({ status: 200, body: { ended: 0 } });
  });

  it("with an API key, signs out every session", async () => {
    second = await signIn("erin");
    const res = await seen(erinKey.post("/ext/svc/me/sessions/sign-out-others"));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ended: 2 });
    expect((await first.me()).status).toBe(401);
    expect((await second.me()).status).toBe(401);
    expect((await seen(erinKey.get("/ext/svc/me/sessions"))).body.sessions).toEqual([]);
  });

  it("two sessions signing out each other at once: exactly one stays signed in", async () => {
    for (let round = 0; round < 8; round++) {
      const [a, b] = [await signIn("erin"), await signIn("erin")];
      const [byA, byB] = await Promise.all([a.endOthers(), b.endOthers()]);
      const statuses = [byA.status, byB.status].sort();
      expect(statuses, `round ${round}: ${byA.text} / ${byB.text}`).toEqual([200, 401]);
      const winner = byA.status === 200 ? a : b;
      expect((byA.status === 200 ? byA : byB).body).toEqual({ ended: 1 });
      expect((await winner.me()).status).toBe(200);
      const left = (await winner.list()).body.sessions;
      expect(left.map((s: { current: boolean }) => s.current)).toEqual([true]);
      expect((await seen(erinKey.post("/ext/svc/me/sessions/sign-out-others"))).status).toBe(200);
    }
  });

  it("never answers with a session token or its secret id", async () => {
    const sids = (await t.app.db.select({ id: consoleSessions.id }).from(consoleSessions)).map((row) => row.id);
    const probe = await signIn("erin");
    const token = probe.cookie.slice(probe.cookie.indexOf("=") + 1);
    const all = [...answers, await probe.list(), await probe.me()];
    for (const res of all) {
      expect(res.text).not.toContain(token);
      for (const sid of [...sids, await sidOf(probe)]) expect(res.text).not.toContain(sid);
    }
    // And neither does the audit log.
    const log = (await t.admin.get("/ext/svc/admin/audit?target_type=session&limit=200")).text;
    expect(log).not.toContain(await sidOf(probe));
    expect(log).toContain(await publicIdOf(probe));
  });
});
